import { Schema } from "effect"

/** A W3C trace id (32 lowercase hex digits), as sent in `x-trace-id` and in runtime turn bodies. */
export const TraceId = Schema.String.pipe(
  Schema.pattern(/^[0-9a-f]{32}$/),
  Schema.annotations({
    identifier: "TraceId",
    description: "A W3C trace id: 32 lowercase hex digits",
    examples: ["4bf92f3577b34da6a3ce929d0e0e4736"]
  })
)
export type TraceId = typeof TraceId.Type
