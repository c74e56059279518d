/**
 * An Assistant's draft flow graph. The draft shares the Assistant's revision
 * (flow and intents move it together), every write answers the new revision,
 * and a write may send the revision it is based on (`If-Match`, or `revision`
 * in the body) to get a 409 instead of overwriting someone else's change.
 *
 * Writes keep the graph well-formed (unique ids, edges between existing
 * nodes, nodes in existing sub-flows) and refuse anything else with
 * `InvalidFlow`; everything a draft may still get wrong while it is being
 * edited is reported by the analysis instead.
 */
import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../identity/Ids.js"
import { Name } from "../Name.js"
import { Revision } from "../Revision.js"
import { AssistantId } from "./Assistant.js"
import { FlowEdge } from "./FlowEdge.js"
import { FlowEdgeId, FlowNodeId, SubflowId } from "./FlowIds.js"
import { FlowNode } from "./FlowNode.js"

/** The most nodes, edges and sub-flows one flow may hold. */
export const FLOW_LIMITS = { nodes: 1000, edges: 3000, subflows: 100 } as const

/** A named part of the flow (a page of an imported diagram) that jump nodes can enter. */
export const Subflow = Schema.Struct({
  id: SubflowId,
  name: Name,
  /** The node a jump to this sub-flow continues at. */
  entryNodeId: FlowNodeId
}).annotations({ identifier: "Subflow" })
export type Subflow = typeof Subflow.Type

/** The nodes of a flow. */
export const FlowNodes = Schema.Array(FlowNode).pipe(Schema.maxItems(FLOW_LIMITS.nodes))

/** The edges of a flow. */
export const FlowEdges = Schema.Array(FlowEdge).pipe(Schema.maxItems(FLOW_LIMITS.edges))

/** The sub-flows of a flow. */
export const Subflows = Schema.Array(Subflow).pipe(Schema.maxItems(FLOW_LIMITS.subflows))

/** The draft flow of an Assistant: its graph, the draft's revision and when it last changed. */
export class Flow extends Model.Class<Flow>("Flow")({
  agentId: Model.FieldExcept("jsonCreate", "jsonUpdate")(AssistantId),
  workspaceId: Model.FieldOnly("select", "insert", "update")(WorkspaceId),
  nodes: FlowNodes,
  edges: FlowEdges,
  subflows: Schema.optionalWith(Subflows, { default: () => [] }),
  revision: Model.FieldExcept("jsonCreate", "jsonUpdate")(Revision),
  updatedAt: Model.DateTimeUpdateFromDate
}) {}

/** The body of `PUT /flow`: the whole graph, replacing the draft's. Unknown fields are refused. */
export const FlowReplace = Schema.Struct({
  nodes: FlowNodes,
  edges: FlowEdges,
  subflows: Schema.optionalWith(Subflows, { default: () => [] }),
  /** The revision this graph is based on (like `If-Match`; when both are sent they must agree). */
  revision: Schema.optional(Revision)
}).annotations({
  identifier: "FlowReplace",
  parseOptions: { onExcessProperty: "error" },
  // no `revision`: the example replaces whatever the draft is now, where a guessed one would be a 409
  examples: [{
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
      {
        id: "route",
        type: "intent-router",
        position: { x: 0, y: 120 },
        data: { intents: ["order_status"], slotVariables: {} }
      },
      {
        id: "order_status_reply",
        type: "message",
        position: { x: 0, y: 240 },
        data: { text: "Your order is on its way.", buttons: [] }
      },
      { id: "done", type: "end", position: { x: 0, y: 360 }, data: { outcome: "resolved" } }
    ],
    edges: [
      { id: "start-to-route", source: "start", target: "route", kind: "next" },
      {
        id: "route-order_status",
        source: "route",
        target: "order_status_reply",
        kind: "intent",
        intent: "order_status"
      },
      { id: "route-fallback", source: "route", target: "done", kind: "fallback" },
      { id: "reply-to-done", source: "order_status_reply", target: "done", kind: "next" }
    ],
    subflows: []
  } as never]
})
export type FlowReplace = typeof FlowReplace.Type

/** The answer to a node write: the node as stored and the draft's new revision. */
export const FlowNodeWritten = Schema.Struct({
  revision: Revision,
  node: FlowNode
}).annotations({ identifier: "FlowNodeWritten" })

/** The answer to an edge write: the edge as stored and the draft's new revision. */
export const FlowEdgeWritten = Schema.Struct({
  revision: Revision,
  edge: FlowEdge
}).annotations({ identifier: "FlowEdgeWritten" })

/** The answer to a node or edge delete: what went (a node takes its edges along) and the new revision. */
export const FlowDeletion = Schema.Struct({
  revision: Revision,
  removedNodeIds: Schema.Array(FlowNodeId),
  removedEdgeIds: Schema.Array(FlowEdgeId)
}).annotations({ identifier: "FlowDeletion" })

/** Why a graph is not well-formed. */
export const FlowStructureProblem = Schema.Struct({
  code: Schema.Literal(
    "duplicate-node-id",
    "duplicate-edge-id",
    "duplicate-subflow-id",
    "unknown-edge-endpoint",
    "unknown-subflow"
  ),
  message: Schema.String,
  nodeIds: Schema.Array(Schema.String),
  edgeIds: Schema.Array(Schema.String)
}).annotations({ identifier: "FlowStructureProblem" })

/** The written graph would not be well-formed; nothing was saved. */
export class InvalidFlow extends Schema.TaggedError<InvalidFlow>()(
  "InvalidFlow",
  { message: Schema.String, problems: Schema.Array(FlowStructureProblem) },
  HttpApiSchema.annotations({ status: 400 })
) {}
