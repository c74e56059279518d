import { Schema } from "effect"
import { Assistant } from "./Assistant.js"
import { FlowEdges, FlowNodes, Subflows } from "./Flow.js"
import { Intent } from "./Intent.js"

/**
 * Parley's own document of an Assistant (format `parley`): its settings, its
 * intents and its flow, as `GET /flow/export?format=parley` writes it and
 * `POST /imports/source` with `format: "parley"` reads it. `version` grows
 * when the shape changes incompatibly; readers refuse a version they do not
 * know.
 */
export const ParleyDocument = Schema.Struct({
  format: Schema.Literal("parley"),
  version: Schema.Literal(1),
  assistant: Assistant.jsonCreate,
  intents: Schema.Array(Intent.jsonCreate).pipe(Schema.maxItems(1000)),
  flow: Schema.Struct({
    nodes: FlowNodes,
    edges: FlowEdges,
    subflows: Schema.optionalWith(Subflows, { default: () => [] })
  })
}).annotations({ identifier: "ParleyDocument", parseOptions: { onExcessProperty: "error" } })
export type ParleyDocument = typeof ParleyDocument.Type
