/**
 * Edge edits of a draft graph, pure: add an edge (the server names it when
 * the client does not) and delete one. Like a `PUT /flow`, an added edge must
 * join two nodes of the graph (the caller's structure check refuses it
 * otherwise) but may take an outcome its source never has: that is a
 * dangling edge for the analysis to report, not a write to refuse.
 */
import { Either } from "effect"
import { routeKey } from "../analysis/Outcomes.js"
import { type FlowEdge, type FlowEdgeCreate, FlowEdgeIdTaken, FlowEdgeNotFound } from "../FlowEdge.js"
import type { FlowEdgeId } from "../FlowIds.js"
import type { FlowGraph } from "../FlowStructure.js"
import { freshEdgeId } from "../repair/FreshIds.js"

/** The graph with `input` added at the end; its id is the client's or one made from its source and route. */
export const addEdge = (
  graph: FlowGraph,
  input: FlowEdgeCreate
): Either.Either<{ readonly graph: FlowGraph; readonly edge: FlowEdge }, FlowEdgeIdTaken> => {
  const taken = new Set<string>(graph.edges.map((edge) => edge.id))
  if (input.id !== undefined && taken.has(input.id)) {
    return Either.left(new FlowEdgeIdTaken({ edgeId: input.id, message: `The flow already has an edge ${input.id}` }))
  }
  const edge = {
    ...input,
    id: input.id ?? freshEdgeId(`${input.source}-${routeKey(input).replace(" ", "-")}`, taken)
  } as FlowEdge
  return Either.right({ graph: { ...graph, edges: [...graph.edges, edge] }, edge })
}

/** The graph without one edge. */
export const removeEdge = (graph: FlowGraph, edgeId: FlowEdgeId): Either.Either<FlowGraph, FlowEdgeNotFound> =>
  graph.edges.some((edge) => edge.id === edgeId)
    ? Either.right({ ...graph, edges: graph.edges.filter((edge) => edge.id !== edgeId) })
    : Either.left(new FlowEdgeNotFound({ edgeId, message: `The flow has no edge ${edgeId}` }))
