/**
 * A workflow graph indexed for walking: nodes by id, and each node's
 * outgoing edges in the graph's own order (the order parallel branches are
 * named and merged in). A draft may be half-built, so what the walk cannot
 * follow (an edge to a missing node, two edges leaving one exit of a node
 * that is not a parallel, no trigger or several) is a `not-runnable` failure
 * at the node, met only if the run gets there.
 */
import { Effect, Either } from "effect"
import type { WorkflowNodeId } from "../Ids.js"
import type { WorkflowEdge, WorkflowGraph } from "../WorkflowGraph.js"
import type { TriggerNode, WorkflowNode } from "../WorkflowNode.js"
import { failedAt, WorkflowRunFailed } from "./WorkflowRunFailed.js"

/** The graph, ready to walk. */
export interface GraphIndex {
  /** The one trigger the run starts from. */
  readonly trigger: Either.Either<typeof TriggerNode.Type, WorkflowRunFailed>
  readonly node: (id: WorkflowNodeId, from: WorkflowNode) => Effect.Effect<WorkflowNode, WorkflowRunFailed>
  /** Every edge leaving the node, whatever its handle, in graph order. */
  readonly edgesFrom: (node: WorkflowNode) => ReadonlyArray<WorkflowEdge>
  readonly hasExit: (node: WorkflowNode, handle: string) => boolean
  /** Where the node's exit `handle` (absent: its only exit) leads; undefined when no edge leaves by it. */
  readonly next: (
    node: WorkflowNode,
    handle: string | undefined
  ) => Effect.Effect<WorkflowNodeId | undefined, WorkflowRunFailed>
}

/** Indexes a graph (lookups only: nothing here depends on a map's iteration order). */
export const indexGraph = (graph: WorkflowGraph): GraphIndex => {
  const nodes = new Map(graph.nodes.map((node) => [node.id, node]))
  const outgoing = new Map<string, Array<WorkflowEdge>>()
  for (const edge of graph.edges) {
    const list = outgoing.get(edge.source)
    if (list === undefined) outgoing.set(edge.source, [edge])
    else list.push(edge)
  }
  const edgesFrom = (node: WorkflowNode) => outgoing.get(node.id) ?? []
  const triggers = graph.nodes.filter((node): node is typeof TriggerNode.Type => node.type === "trigger")
  return {
    trigger: triggers.length === 1
      ? Either.right(triggers[0]!)
      : Either.left(
        triggers.length === 0
          ? new WorkflowRunFailed({ code: "not-runnable", message: "the workflow has no trigger" })
          : failedAt(triggers[1]!.id, "not-runnable", "the workflow has more than one trigger")
      ),
    node: (id, from) => {
      const node = nodes.get(id)
      return node === undefined
        ? Effect.fail(failedAt(from.id, "not-runnable", `an edge leads to the missing node ${id}`))
        : Effect.succeed(node)
    },
    edgesFrom,
    hasExit: (node, handle) => edgesFrom(node).some((edge) => edge.sourceHandle === handle),
    next: (node, handle) => {
      const edges = edgesFrom(node).filter((edge) => edge.sourceHandle === handle)
      return edges.length > 1
        ? Effect.fail(
          failedAt(
            node.id,
            "not-runnable",
            `${edges.length} edges leave by ${handle ?? "the node's exit"}: only one may`
          )
        )
        : Effect.succeed(edges[0]?.target)
    }
  }
}
