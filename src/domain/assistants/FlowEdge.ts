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

const routes = {
  next: Schema.Struct({ kind: Schema.Literal("next") }),
  answered: Schema.Struct({ kind: Schema.Literal("answered") }),
  option: Schema.Struct({ kind: Schema.Literal("option"), option: RouteKey }),
  intent: Schema.Struct({ kind: Schema.Literal("intent"), intent: IntentName }),
  case: Schema.Struct({ kind: Schema.Literal("case"), case: RouteKey }),
  fallback: Schema.Struct({ kind: Schema.Literal("fallback") }),
  error: Schema.Struct({ kind: Schema.Literal("error") })
}

/** The outcome of its source node that an edge takes. */
export const EdgeRoute = Schema.Union(
  routes.next,
  routes.answered,
  routes.option,
  routes.intent,
  routes.case,
  routes.fallback,
  routes.error
).annotations({ identifier: "FlowEdgeRoute" })
export type EdgeRoute = typeof EdgeRoute.Type

/** The kinds of edge. */
export const EdgeKind = Schema.Literal("next", "answered", "option", "intent", "case", "fallback", "error")
export type EdgeKind = typeof EdgeKind.Type

/** The text the editor shows on an edge: 1 to 120 characters; routing never reads it. */
export const EdgeLabel = Schema.Trim.pipe(
  Schema.nonEmptyString(),
  Schema.maxLength(120),
  // the document shows the encoded side (a string before trimming): this names the example it offers
  Schema.annotations({
    jsonSchema: { type: "string", description: "a string that will be trimmed", examples: ["Yes"] }
  })
)

const exact = { parseOptions: { onExcessProperty: "error" } } as const

/** An edge's own fields with each route's: one struct per route. */
const perRoute = <F extends Schema.Struct.Fields>(fields: F) =>
  Schema.Union(
    Schema.Struct({ ...fields, ...routes.next.fields }),
    Schema.Struct({ ...fields, ...routes.answered.fields }),
    Schema.Struct({ ...fields, ...routes.option.fields }),
    Schema.Struct({ ...fields, ...routes.intent.fields }),
    Schema.Struct({ ...fields, ...routes.case.fields }),
    Schema.Struct({ ...fields, ...routes.fallback.fields }),
    Schema.Struct({ ...fields, ...routes.error.fields })
  )

/** An edge of a flow: from `source` to `target`, taking one outcome of `source`. */
export const FlowEdge = perRoute({
  id: FlowEdgeId,
  source: FlowNodeId,
  target: FlowNodeId,
  label: Schema.optional(EdgeLabel)
}).annotations({ identifier: "FlowEdge" })
export type FlowEdge = typeof FlowEdge.Type

/** A new edge (`POST /flow/edges`); without an `id` the server makes one. Unknown fields are refused. */
export const FlowEdgeCreate = perRoute({
  id: Schema.optional(FlowEdgeId),
  source: FlowNodeId,
  target: FlowNodeId,
  label: Schema.optional(EdgeLabel)
}).annotations({ identifier: "FlowEdgeCreate", ...exact })
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
