import { Schema } from "effect"
import { HandleName } from "./Expression.js"
import { WorkflowEdgeId, WorkflowNodeId } from "./Ids.js"
import { WorkflowNode } from "./WorkflowNode.js"

/** The most nodes a graph may hold. */
export const MAX_NODES = 500

/** The most edges a graph may hold. */
export const MAX_EDGES = 2000

/** A connection from one node's exit (its handle, when it has several) to another node. */
export const WorkflowEdge = Schema.Struct({
  id: WorkflowEdgeId,
  source: WorkflowNodeId,
  target: WorkflowNodeId,
  /** Which exit of the source: `true`/`false`, a case name, `body`/`done`, `error`...; absent for the only one. */
  sourceHandle: Schema.optional(HandleName),
  /** The text the editor draws on the edge. */
  label: Schema.optional(Schema.Trim.pipe(Schema.maxLength(120)))
}).annotations({ identifier: "WorkflowEdge" })
export type WorkflowEdge = typeof WorkflowEdge.Type

const distinct = <A>(items: ReadonlyArray<A>, key: (a: A) => string): boolean =>
  new Set(items.map(key)).size === items.length

/**
 * A workflow's graph: typed nodes and the edges between them. Node ids and edge
 * ids are unique; everything else (dangling edges, unreachable nodes, missing
 * branches, expression types) is a problem that validate-publish reports, so a
 * draft may be saved half-built.
 */
export const WorkflowGraph = Schema.Struct({
  nodes: Schema.Array(WorkflowNode).pipe(
    Schema.maxItems(MAX_NODES),
    Schema.filter((nodes) => distinct(nodes, (n) => n.id) || "node ids must be unique within a graph")
  ),
  edges: Schema.Array(WorkflowEdge).pipe(
    Schema.maxItems(MAX_EDGES),
    Schema.filter((edges) => distinct(edges, (e) => e.id) || "edge ids must be unique within a graph")
  )
}).annotations({ identifier: "WorkflowGraph" })
export type WorkflowGraph = typeof WorkflowGraph.Type

/** The graph of a new workflow when none is given. */
export const emptyGraph: WorkflowGraph = { nodes: [], edges: [] }

/** The body of `PUT /workflows/{id}/graph`: the whole new draft graph; unknown fields are refused. */
export const WorkflowGraphReplace = WorkflowGraph.annotations({
  identifier: "WorkflowGraphReplace",
  parseOptions: { onExcessProperty: "error" }
})
