import { Schema } from "effect"

/** The outcome of one readiness check (database, migrations, cluster runner). */
export const CheckResult = Schema.Struct({
  ok: Schema.Boolean,
  detail: Schema.optional(Schema.String)
}).annotations({ identifier: "CheckResult" })
export type CheckResult = typeof CheckResult.Type

/** The process is up. */
export const Liveness = Schema.Struct({
  status: Schema.Literal("ok"),
  uptimeSeconds: Schema.Number
}).annotations({ identifier: "Liveness" })

/** Every readiness check passed. */
export const Readiness = Schema.Struct({
  status: Schema.Literal("ready"),
  checks: Schema.Record({ key: Schema.String, value: CheckResult })
}).annotations({ identifier: "Readiness" })
export type Readiness = typeof Readiness.Type
