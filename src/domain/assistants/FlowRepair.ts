/**
 * `POST /flow/repair-node` and `POST /flow/repair`: fix what can be fixed
 * mechanically about one node or the whole draft (a fallback to a "sorry"
 * end, a dead end to a safe end node, branches made a choice, dangling edges
 * dropped, a router's misspelt intents re-pointed) and say exactly what
 * changed, so an editor can show it and undo it with one `PUT /flow`.
 */
import { Schema } from "effect"
import { Revision } from "../Revision.js"
import { FlowEdge } from "./FlowEdge.js"
import { Finding } from "./FlowFinding.js"
import { FlowNodeId } from "./FlowIds.js"
import { FlowNode } from "./FlowNode.js"

/** The node to repair and, optionally, the revision the client saw (like `If-Match`). Unknown fields are refused. */
export const RepairNodeRequest = Schema.Struct({
  nodeId: FlowNodeId,
  revision: Schema.optional(Revision)
}).annotations({
  identifier: "RepairNodeRequest",
  parseOptions: { onExcessProperty: "error" },
  // no `revision`: repair the draft as it is now
  examples: [{ nodeId: "route" as FlowNodeId }]
})
export type RepairNodeRequest = typeof RepairNodeRequest.Type

/** A node or edge as it was and as it is. */
const Change = <S extends Schema.Schema.Any>(item: S) => Schema.Struct({ before: item, after: item })

/** What a write changed in the graph, each removed or changed item with its old content. */
export const FlowDiff = Schema.Struct({
  addedNodes: Schema.Array(FlowNode),
  removedNodes: Schema.Array(FlowNode),
  changedNodes: Schema.Array(Change(FlowNode)),
  addedEdges: Schema.Array(FlowEdge),
  removedEdges: Schema.Array(FlowEdge),
  changedEdges: Schema.Array(Change(FlowEdge))
}).annotations({ identifier: "FlowDiff" })
export type FlowDiff = typeof FlowDiff.Type

/**
 * The result of a repair: the draft's revision afterwards (unchanged when
 * there was nothing to fix), the change, the findings about the node that it
 * fixed, and those that remain (for a person to decide).
 */
export const RepairNodeResult = Schema.Struct({
  revision: Revision,
  changed: Schema.Boolean,
  diff: FlowDiff,
  fixed: Schema.Array(Finding),
  remaining: Schema.Array(Finding)
}).annotations({ identifier: "RepairNodeResult" })
export type RepairNodeResult = typeof RepairNodeResult.Type

/** `POST /flow/repair`: optionally, the revision the client saw (like `If-Match`). Unknown fields are refused. */
export const RepairFlowRequest = Schema.Struct({
  revision: Schema.optional(Revision)
}).annotations({
  identifier: "RepairFlowRequest",
  parseOptions: { onExcessProperty: "error" },
  // no `revision`: repair the draft as it is now
  examples: [{}]
})
export type RepairFlowRequest = typeof RepairFlowRequest.Type

/**
 * The result of repairing a whole draft in one revision: the revision
 * afterwards (unchanged when there was nothing to fix), the change, the
 * findings it fixed, and every finding left (for a person to decide).
 */
export const RepairFlowResult = Schema.Struct({
  revision: Revision,
  changed: Schema.Boolean,
  diff: FlowDiff,
  fixed: Schema.Array(Finding),
  remaining: Schema.Array(Finding),
  /** Whether the draft can now be deployed: no remaining finding is an error. */
  deployable: Schema.Boolean
}).annotations({ identifier: "RepairFlowResult" })
export type RepairFlowResult = typeof RepairFlowResult.Type
