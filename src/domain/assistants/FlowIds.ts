/**
 * The names a flow graph uses for its own parts. Unlike resource ids they are
 * short strings the client can choose, so an import, a repair or a script can
 * name a node before the server has seen it; the server makes one when a new
 * node or edge comes without.
 */
import { Schema } from "effect"

const key = /^[A-Za-z0-9_-]{1,64}$/

/** A node of an Assistant's flow, unique within the flow: 1 to 64 of A-Z, a-z, 0-9, `_` and `-`. */
export const FlowNodeId = Schema.String.pipe(
  Schema.pattern(key, { message: () => "a node id is 1 to 64 characters of A-Z, a-z, 0-9, '_' and '-'" }),
  Schema.brand("FlowNodeId"),
  Schema.annotations({ identifier: "FlowNodeId", examples: ["ask_email" as never] })
)
export type FlowNodeId = typeof FlowNodeId.Type

/** An edge of an Assistant's flow, unique within the flow: 1 to 64 of A-Z, a-z, 0-9, `_` and `-`. */
export const FlowEdgeId = Schema.String.pipe(
  Schema.pattern(key, { message: () => "an edge id is 1 to 64 characters of A-Z, a-z, 0-9, '_' and '-'" }),
  Schema.brand("FlowEdgeId"),
  Schema.annotations({ identifier: "FlowEdgeId", examples: ["greet-to-ask_email" as never] })
)
export type FlowEdgeId = typeof FlowEdgeId.Type

/** A sub-flow (a page of an imported diagram, a reusable part), unique within the flow. */
export const SubflowId = Schema.String.pipe(
  Schema.pattern(key, { message: () => "a sub-flow id is 1 to 64 characters of A-Z, a-z, 0-9, '_' and '-'" }),
  Schema.brand("SubflowId"),
  Schema.annotations({ identifier: "SubflowId", examples: ["checkout" as never] })
)
export type SubflowId = typeof SubflowId.Type

/**
 * The key of one outcome of a node that an edge routes on: a condition's case
 * (`vip`, `true`) or a choice question's option value (`small`, `yes`).
 */
export const RouteKey = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, {
    message: () =>
      "a route key is 1 to 64 characters of A-Z, a-z, 0-9, '_', '.' and '-', starting with a letter or digit"
  }),
  Schema.annotations({ identifier: "FlowRouteKey", examples: ["yes"] })
)
export type RouteKey = typeof RouteKey.Type
