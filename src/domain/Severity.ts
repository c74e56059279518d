import { Schema } from "effect"

/**
 * How much a problem found by a check (flow analysis, validate-publish)
 * matters: an `error` blocks the deploy or publish, a `warning` is reported and does not.
 */
export const Severity = Schema.Literal("error", "warning").annotations({ identifier: "Severity" })
export type Severity = typeof Severity.Type
