import { Schema } from "effect"
import { JsonValue } from "../Json.js"
import { VariableName } from "../VariableName.js"

/** The JSON type of a declared input variable, used to type-check the expressions that read it. */
export const InputVariableType = Schema.Literal("string", "number", "boolean", "object", "array")
export type InputVariableType = typeof InputVariableType.Type

/** An input the trigger declares (Dify's start variables): the run's `input.<name>`. */
export const InputVariable = Schema.Struct({
  name: VariableName,
  type: InputVariableType,
  required: Schema.optionalWith(Schema.Boolean, { default: () => true }),
  description: Schema.optional(Schema.String.pipe(Schema.maxLength(500))),
  /** The value used when the input is absent (only for inputs that are not required). */
  default: Schema.optional(JsonValue)
}).annotations({ identifier: "WorkflowInputVariable" })
export type InputVariable = typeof InputVariable.Type

const inputs = {
  /** The inputs a run of this workflow receives; checked when a run or simulator session starts. */
  inputs: Schema.optionalWith(Schema.Array(InputVariable).pipe(Schema.maxItems(100)), { default: () => [] })
}

/** A five-field cron expression (minute hour day-of-month month day-of-week). */
export const CronExpression = Schema.String.pipe(
  Schema.pattern(/^\S+(\s+\S+){4}$/),
  Schema.maxLength(120),
  Schema.annotations({ identifier: "CronExpression", examples: ["0 9 * * 1-5"] })
)

/** An IANA time-zone name such as `Europe/Paris` or `UTC`. */
export const TimeZone = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+){0,2}$/),
  Schema.maxLength(64),
  Schema.annotations({ identifier: "TimeZone", examples: ["Europe/Paris"] })
)

/** The type of an event delivered to a chain's ingress, e.g. `order.created`. */
export const EventType = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/),
  Schema.annotations({ identifier: "EventType", examples: ["order.created"] })
)

/**
 * How a workflow starts: `manual` (the simulator, or a person), `webhook` (an
 * ingress event of a chain that runs it; `eventTypes` narrows which ones, empty
 * for all), `schedule` (a cron schedule in a time zone, once published) or
 * `chain` (as a step of a chain, its input from the step's input mapping).
 */
export const TriggerData = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("manual"), ...inputs }).annotations({}),
  Schema.Struct({
    kind: Schema.Literal("webhook"),
    eventTypes: Schema.optionalWith(Schema.Array(EventType).pipe(Schema.maxItems(50)), { default: () => [] }),
    ...inputs
  }),
  Schema.Struct({
    kind: Schema.Literal("schedule"),
    cron: CronExpression,
    timezone: Schema.optionalWith(TimeZone, { default: () => "UTC" }),
    ...inputs
  }),
  Schema.Struct({ kind: Schema.Literal("chain"), ...inputs }).annotations({})
).annotations({ identifier: "WorkflowTriggerData" })
export type TriggerData = typeof TriggerData.Type
