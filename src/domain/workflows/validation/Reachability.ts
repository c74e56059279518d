/**
 * Where runs go: nodes no run reaches from the trigger (`unreachable-node`)
 * and nodes a run reaches and cannot leave (`dead-end`). Both are warnings:
 * an unreachable node does no harm and is probably left over from an edit,
 * and a path may end on purpose somewhere other than an output (a workflow
 * run for its side effects); the run then finishes there without an output.
 * Inside a loop's body or a parallel's branch, a path's end is only the end
 * of the iteration or of the branch, the way the engine runs them, and is
 * not reported. A node whose only ways out are named branches is covered by
 * `missing-branch` instead, and an unreachable node is not also called a
 * dead end.
 */
import type { PublishProblem } from "../PublishProblem.js"
import { exitsOf, UNNAMED } from "./Exits.js"
import { warning } from "./Problems.js"
import type { Topology } from "./Topology.js"

/** Unreachable nodes (only when there is a trigger to start from) and dead ends. */
export const reachabilityProblems = (topology: Topology): ReadonlyArray<PublishProblem> =>
  topology.nodes.flatMap((node) => {
    const hasStart = topology.triggers.length > 0
    if (hasStart && !topology.reachable.has(node.id)) {
      const message = `No run reaches ${node.type} node ${node.id} from the trigger`
      return [warning("unreachable-node", message, { nodeId: node.id })]
    }
    const endsAPart = topology.inLoopBody.has(node.id) || topology.inParallelBranch.has(node.id)
    const deadEnd = node.type !== "output" && !endsAPart && exitsOf(node).includes(UNNAMED) &&
      !topology.exits(node.id).some((live) => live.handle === UNNAMED)
    if (!deadEnd) return []
    const message = `Node ${node.id} (${node.type}) has no edge out: a run that gets here stops without an output`
    return [warning("dead-end", message, { nodeId: node.id })]
  })
