/**
 * `cycle-without-exit`, an error: loops are the only bounded repetition (at
 * most `maxIterations` times), so every cycle of the graph must leave a loop
 * node by its `body` exit and come back to it. Removing every loop's `body`
 * edges breaks all such cycles; any cycle left over (a strongly connected
 * set of nodes, or a node with an edge to itself) could repeat forever.
 * Tarjan's algorithm, iteratively: linear in nodes and edges.
 */
import type { PublishProblem } from "../PublishProblem.js"
import { error, listed } from "./Problems.js"
import type { LiveEdge, Topology } from "./Topology.js"

const bounded = (live: LiveEdge): boolean => live.source.type === "loop" && live.handle === "body"

/** The strongly connected components over `steps`, each listed in graph order. */
const components = (
  ids: ReadonlyArray<string>,
  steps: (id: string) => ReadonlyArray<string>
): ReadonlyArray<ReadonlyArray<string>> => {
  const number = new Map<string, number>()
  const lowlink = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: Array<string> = []
  const found: Array<ReadonlyArray<string>> = []
  let counter = 0
  const open = (id: string) => {
    number.set(id, counter)
    lowlink.set(id, counter++)
    stack.push(id)
    onStack.add(id)
  }
  for (const root of ids) {
    if (number.has(root)) continue
    open(root)
    const work: Array<{ readonly id: string; next: number }> = [{ id: root, next: 0 }]
    while (work.length > 0) {
      const frame = work[work.length - 1]!
      const targets = steps(frame.id)
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!
        if (!number.has(target)) {
          open(target)
          work.push({ id: target, next: 0 })
        } else if (onStack.has(target)) {
          lowlink.set(frame.id, Math.min(lowlink.get(frame.id)!, number.get(target)!))
        }
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent !== undefined) lowlink.set(parent.id, Math.min(lowlink.get(parent.id)!, lowlink.get(frame.id)!))
      if (lowlink.get(frame.id) !== number.get(frame.id)) continue
      const component: Array<string> = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== frame.id)
      found.push(component)
    }
  }
  return found
}

/** One error per cycle that does not go round a loop's body, on its first node in graph order. */
export const cycleProblems = (topology: Topology): ReadonlyArray<PublishProblem> => {
  const steps = new Map<string, ReadonlyArray<string>>(
    topology.nodes.map((node) => [
      node.id,
      topology.exits(node.id).filter((live) => !bounded(live)).map((live) => live.target.id)
    ])
  )
  const rank = (id: string) => topology.order.get(id)!
  return components(topology.nodes.map((node) => node.id), (id) => steps.get(id)!)
    .filter((component) => component.length > 1 || steps.get(component[0]!)!.includes(component[0]!))
    .map((component) => [...component].sort((a, b) => rank(a) - rank(b)))
    .sort((a, b) => rank(a[0]!) - rank(b[0]!))
    .map((cycle) =>
      error(
        "cycle-without-exit",
        cycle.length === 1
          ? `Node ${cycle[0]} has an edge to itself: it could repeat forever (repeat with a loop node instead)`
          : `Nodes ${
            listed(cycle)
          } form a cycle that does not go round a loop's body, so it could repeat forever (repeat with a loop node instead)`,
        { nodeId: topology.node(cycle[0]!)!.id }
      )
    )
}
