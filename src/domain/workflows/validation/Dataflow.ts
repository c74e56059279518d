/**
 * What is written before each node: a forward data flow over the edges a
 * run can follow, from the trigger, for a given list of keys (`vars.<name>`,
 * `nodes.<id>`). `certain` holds what every path from the trigger has
 * written on arrival (the intersection over the ways in), `possible` what
 * some path has (the union). Leaving a node by an exit writes its variable
 * on that exit (`variableSetOn`: not on `error` or `timeout`) and its output
 * `nodes.<id>` on every exit. A join that waits for `all` its branches has
 * certainly what any branch has certainly written (every branch has
 * arrived), so its `certain` is the union. A loop is seen twice: on entry
 * (the ways in from outside its body: what `over` reads) and at the end of
 * an iteration (the edges back from its body: what `collect` reads).
 *
 * Sets are bit sets over the keys; nodes are visited in reverse post-order,
 * round after round until nothing changes (a few rounds: one more per loop
 * nested in another), at most one round per node, so the work stays within
 * nodes × edges × keys / 32 even for a graph built to be slow.
 */
import type { WorkflowNode } from "../WorkflowNode.js"
import { variableSetOn } from "./Exits.js"
import type { Moment } from "./NodeFields.js"
import type { LiveEdge, Topology } from "./Topology.js"

/** What is written when a node evaluates a field. */
export interface Written {
  readonly certain: (key: string) => boolean
  readonly possible: (key: string) => boolean
}

export interface Dataflow {
  /** `undefined` for a node no run reaches (or when there is no trigger). */
  readonly at: (nodeId: string, moment: Moment) => Written | undefined
}

type Bits = Uint32Array

interface State {
  readonly certain: Bits
  readonly possible: Bits
}

const union = (a: Bits, b: Bits): Bits => a.map((word, index) => word | b[index]!)
const intersection = (a: Bits, b: Bits): Bits => a.map((word, index) => word & b[index]!)
const same = (a: Bits, b: Bits): boolean => a.every((word, index) => word === b[index])

/** The node ids reachable from the triggers, in reverse post-order (iterative depth-first search). */
const reversePostOrder = (topology: Topology): ReadonlyArray<WorkflowNode> => {
  const visited = new Set<string>()
  const post: Array<WorkflowNode> = []
  for (const trigger of topology.triggers) {
    if (visited.has(trigger.id)) continue
    visited.add(trigger.id)
    const work: Array<{ readonly node: WorkflowNode; next: number }> = [{ node: trigger, next: 0 }]
    while (work.length > 0) {
      const frame = work[work.length - 1]!
      const exits = topology.exits(frame.node.id)
      if (frame.next < exits.length) {
        const target = exits[frame.next++]!.target
        if (!visited.has(target.id)) {
          visited.add(target.id)
          work.push({ node: target, next: 0 })
        }
        continue
      }
      work.pop()
      post.push(frame.node)
    }
  }
  return post.reverse()
}

/** The data flow of `keys` over the graph. */
export const dataflowOf = (topology: Topology, keys: ReadonlyArray<string>): Dataflow => {
  const slots = new Map(keys.map((key, index) => [key, index]))
  const words = Math.max(1, Math.ceil(keys.length / 32))
  const empty = () => new Uint32Array(words)
  const bitsOf = (names: ReadonlyArray<string>): Bits => {
    const bits = empty()
    for (const name of names) {
      const slot = slots.get(name)
      if (slot !== undefined) bits[slot >>> 5]! |= 1 << (slot & 31)
    }
    return bits
  }
  const has = (bits: Bits, key: string) => {
    const slot = slots.get(key)
    return slot !== undefined && (bits[slot >>> 5]! & (1 << (slot & 31))) !== 0
  }

  const written = new Map<string, Bits>()
  const writtenOn = (live: LiveEdge): Bits => {
    let bits = written.get(live.edge.id)
    if (bits === undefined) {
      const variable = variableSetOn(live.source, live.handle)
      bits = bitsOf(
        variable === undefined ? [`nodes.${live.source.id}`] : [`nodes.${live.source.id}`, `vars.${variable}`]
      )
      written.set(live.edge.id, bits)
    }
    return bits
  }

  const order = reversePostOrder(topology)
  const states = new Map<string, State>()
  for (const trigger of topology.triggers) states.set(trigger.id, { certain: empty(), possible: empty() })

  /** The state over some ways in, leaving out sources not yet computed; `undefined` when none is. */
  const merge = (ways: ReadonlyArray<LiveEdge>, certainly: "all" | "any"): State | undefined => {
    let certain: Bits | undefined
    let possible: Bits | undefined
    for (const way of ways) {
      const from = states.get(way.source.id)
      if (from === undefined) continue
      const leaving = writtenOn(way)
      const sure = union(from.certain, leaving)
      certain = certain === undefined ? sure : certainly === "all" ? union(certain, sure) : intersection(certain, sure)
      possible = union(possible ?? empty(), union(from.possible, leaving))
    }
    return certain === undefined || possible === undefined ? undefined : { certain, possible }
  }

  const triggers = new Set(topology.triggers.map((node) => node.id))
  const joinsAll = (node: WorkflowNode) => node.type === "join" && node.data.wait === "all"
  for (let round = 0, changed = true; changed && round <= order.length; round++) {
    changed = false
    for (const node of order) {
      if (triggers.has(node.id)) continue
      const next = merge(topology.entries(node.id), joinsAll(node) ? "all" : "any")
      if (next === undefined) continue
      const known = states.get(node.id)
      if (known !== undefined && same(known.certain, next.certain) && same(known.possible, next.possible)) continue
      states.set(node.id, next)
      changed = true
    }
  }

  const view = (state: State | undefined): Written | undefined =>
    state === undefined ? undefined : {
      certain: (key) => has(state.certain, key),
      possible: (key) => has(state.possible, key)
    }

  return {
    at: (nodeId, moment) => {
      if (moment === "arrival" || !states.has(nodeId)) return view(states.get(nodeId))
      const body = topology.loopBody(nodeId)
      const ways = topology.entries(nodeId).filter((live) => body.has(live.source.id) === (moment === "iteration-end"))
      return view(merge(ways, "any") ?? states.get(nodeId))
    }
  }
}
