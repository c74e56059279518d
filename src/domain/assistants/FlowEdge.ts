/**
 * An edge of an Assistant's flow. Its `kind` says which outcome of the source
 * node it takes, so routing never depends on free text: a question's
 * `answered`, `option` (with the choice value) or `fallback`; an intent
 * router's `intent` (with the intent name) or `fallback`; a condition's `case`
 * (with the case key) or `fallback`; an http or ai node's `next` or `error`;
 * `next` everywhere else. Two edges for one outcome are an analysis error.
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { FlowEdgeId, FlowNodeId, RouteKey } from "./FlowIds.js"
import { IntentName } from "./Intent.js"

/** The outcome of its source node that an edge takes. */
export const EdgeRoute = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("next") }),
  Schema.Struct({ kind: Schema.Literal("answered") }),
  Schema.Struct({ kind: Schema.Literal("option"), option: RouteKey }),
  Schema.Struct({ kind: Schema.Literal("intent"), intent: IntentName }),
  Schema.Struct({ kind: Schema.Literal("case"), case: RouteKey }),
  Schema.Struct({ kind: Schema.Literal("fallback") }),
  Schema.Struct({ kind: Schema.Literal("error") })
).annotations({ identifier: "FlowEdgeRoute" })
export type EdgeRoute = typeof EdgeRoute.Type

/** The kinds of edge. */
export const EdgeKind = Schema.Literal("next", "answered", "option", "intent", "case", "fallback", "error")
export type EdgeKind = typeof EdgeKind.Type

/** The text the editor shows on an edge: 1 to 120 characters; routing never reads it. */
export const EdgeLabel = Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(120))

/** An edge of a flow: from `source` to `target`, taking one outcome of `source`. */
export const FlowEdge = Schema.extend(
  Schema.Struct({
    id: FlowEdgeId,
    source: FlowNodeId,
    target: FlowNodeId,
    label: Schema.optional(EdgeLabel)
  }),
  EdgeRoute
).annotations({ identifier: "FlowEdge" })
export type FlowEdge = typeof FlowEdge.Type

/** A new edge (`POST /flow/edges`); without an `id` the server makes one. Unknown fields are refused. */
export const FlowEdgeCreate = Schema.extend(
  Schema.Struct({
    id: Schema.optional(FlowEdgeId),
    source: FlowNodeId,
    target: FlowNodeId,
    label: Schema.optional(EdgeLabel)
  }),
  EdgeRoute
).annotations({ identifier: "FlowEdgeCreate", parseOptions: { onExcessProperty: "error" } })
export type FlowEdgeCreate = typeof FlowEdgeCreate.Type

/** No edge with this id exists in the Assistant's flow. */
export class FlowEdgeNotFound extends Schema.TaggedError<FlowEdgeNotFound>()(
  "FlowEdgeNotFound",
  { edgeId: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}

/** Another edge of the flow already has this id. */
export class FlowEdgeIdTaken extends Schema.TaggedError<FlowEdgeIdTaken>()(
  "FlowEdgeIdTaken",
  { edgeId: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}
