/**
 * Node edits of a draft graph, pure: add a node (the server names it when
 * the client does not), patch one (move, rename, change its data; the data's
 * `type` must be the node's own), delete one with every edge that touches it.
 * Each answers the new graph or a typed error; the graph's structure and
 * limits are checked by the caller before anything is written. A delete
 * leaves what pointed at the node by name (a jump, a sub-flow's entry) for
 * the analysis to report as a broken reference, as a `PUT /flow` would.
 */
import { Either } from "effect"
import { ValidationFailed } from "../../HttpErrors.js"
import type { FlowEdgeId, FlowNodeId } from "../FlowIds.js"
import {
  type FlowNode,
  type FlowNodeCreate,
  FlowNodeIdTaken,
  FlowNodeNotFound,
  type FlowNodePatch
} from "../FlowNode.js"
import type { FlowGraph } from "../FlowStructure.js"
import { freshNodeId } from "../repair/FreshIds.js"

const notFound = (nodeId: string) => new FlowNodeNotFound({ nodeId, message: `The flow has no node ${nodeId}` })

/** The graph with `input` added at the end; its id is the client's or the first free `<type>`, `<type>_2`... */
export const addNode = (
  graph: FlowGraph,
  input: FlowNodeCreate
): Either.Either<{ readonly graph: FlowGraph; readonly node: FlowNode }, FlowNodeIdTaken> => {
  const taken = new Set<string>(graph.nodes.map((node) => node.id))
  if (input.id !== undefined && taken.has(input.id)) {
    return Either.left(new FlowNodeIdTaken({ nodeId: input.id, message: `The flow already has a node ${input.id}` }))
  }
  const node = { ...input, id: input.id ?? freshNodeId(input.type, taken) } as FlowNode
  return Either.right({ graph: { ...graph, nodes: [...graph.nodes, node] }, node })
}

/** The graph with one node patched in place. */
export const patchNode = (
  graph: FlowGraph,
  nodeId: FlowNodeId,
  patch: FlowNodePatch
): Either.Either<{ readonly graph: FlowGraph; readonly node: FlowNode }, FlowNodeNotFound | ValidationFailed> => {
  const current = graph.nodes.find((node) => node.id === nodeId)
  if (current === undefined) return Either.left(notFound(nodeId))
  if ("type" in patch && patch.type !== current.type) {
    return Either.left(
      new ValidationFailed({
        message:
          `Node ${nodeId} is a ${current.type} node, not a ${patch.type} one: its type cannot change (delete it and add a new node)`,
        fields: ["type"]
      })
    )
  }
  const { subflow, ...rest } = patch as FlowNodePatch & { readonly type?: string }
  const { subflow: _, ...withoutSubflow } = current
  const node = {
    ...(subflow === null ? withoutSubflow : current),
    ...rest,
    ...(subflow === undefined || subflow === null ? {} : { subflow })
  } as FlowNode
  return Either.right({
    graph: { ...graph, nodes: graph.nodes.map((item) => (item.id === nodeId ? node : item)) },
    node
  })
}

/** The graph without the node and every edge into or out of it. */
export const removeNode = (
  graph: FlowGraph,
  nodeId: FlowNodeId
): Either.Either<
  { readonly graph: FlowGraph; readonly removedEdgeIds: ReadonlyArray<FlowEdgeId> },
  FlowNodeNotFound
> => {
  if (!graph.nodes.some((node) => node.id === nodeId)) return Either.left(notFound(nodeId))
  const touching = (edge: FlowGraph["edges"][number]) => edge.source === nodeId || edge.target === nodeId
  return Either.right({
    graph: {
      ...graph,
      nodes: graph.nodes.filter((node) => node.id !== nodeId),
      edges: graph.edges.filter((edge) => !touching(edge))
    },
    removedEdgeIds: graph.edges.filter(touching).map((edge) => edge.id)
  })
}
