/**
 * Where the branches of each parallel meet: the joins a run can reach from
 * its exits, as the engine walks them (`engine/ParallelVisits.ts`). A branch
 * ends at the first join it reaches, at the parallel itself, or at a loop
 * around the parallel; a parallel nested in a branch runs its own branches
 * to its own joins, and the branch goes on after them. Branches that meet at
 * different joins cannot run (the engine fails the run, `not-runnable`), so
 * a parallel with more than one join is an error (`parallel-joins-apart`).
 * Each parallel is read once (nested ones from a memo): linear in the graph.
 */
import type { PublishProblem } from "../PublishProblem.js"
import { error } from "./Problems.js"
import type { Topology } from "./Topology.js"

/** The joins each parallel's branches reach, in graph order, by parallel id. */
export const parallelJoins = (topology: Topology): ReadonlyMap<string, ReadonlyArray<string>> => {
  const joins = new Map<string, ReadonlyArray<string>>()
  const inProgress = new Set<string>()
  const byOrder = (a: string, b: string) => topology.order.get(a)! - topology.order.get(b)!

  const joinsOf = (parallelId: string): ReadonlyArray<string> => {
    const known = joins.get(parallelId)
    if (known !== undefined) return known
    // A parallel reached again through its own branches (a cycle no loop bounds): the cycle check reports it.
    if (inProgress.has(parallelId)) return []
    inProgress.add(parallelId)
    const around = new Set<string>(
      topology.nodes.filter((loop) => loop.type === "loop" && topology.loopBody(loop.id).has(parallelId)).map((loop) =>
        loop.id
      )
    )
    const met = new Set<string>()
    const seen = new Set<string>()
    const queue: Array<string> = []
    const visit = (id: string) => {
      if (id === parallelId || around.has(id) || seen.has(id)) return
      seen.add(id)
      const node = topology.node(id)!
      if (node.type === "join") met.add(id)
      else queue.push(id)
    }
    const onwardFrom = (id: string) => topology.exits(id).forEach((live) => visit(live.target.id))
    onwardFrom(parallelId)
    for (let index = 0; index < queue.length; index++) {
      const id = queue[index]!
      if (topology.node(id)!.type === "parallel") {
        // Its branches run to its own joins; this branch goes on after them.
        for (const inner of joinsOf(id)) onwardFrom(inner)
      } else {
        onwardFrom(id)
      }
    }
    inProgress.delete(parallelId)
    const found = [...met].sort(byOrder)
    joins.set(parallelId, found)
    return found
  }

  for (const node of topology.nodes) if (node.type === "parallel") joinsOf(node.id)
  return joins
}

/** A parallel whose branches can meet at different joins. */
export const parallelJoinProblems = (topology: Topology): ReadonlyArray<PublishProblem> => {
  const joinsOf = parallelJoins(topology)
  return topology.nodes.flatMap((node) => {
    const joins = joinsOf.get(node.id) ?? []
    return joins.length <= 1 ? [] : [
      error(
        "parallel-joins-apart",
        `The branches of parallel ${node.id} meet at different joins (${
          joins.join(", ")
        }); a run fails when they do: lead every branch to one join`,
        { nodeId: node.id }
      )
    ]
  })
}
