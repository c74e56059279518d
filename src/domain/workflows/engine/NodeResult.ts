import { Schema } from "effect"
import { JsonObject, JsonValue } from "../../Json.js"
import { HandleName } from "../Expression.js"

/**
 * What one node execution decided: the exit it leaves by, its output (the
 * node's `nodes.<id>`) and the variables it wrote. The interpreter changes
 * the run's state and chooses its path from these alone, so a journal of
 * results (the chain's activities, the simulator's record) replays a run
 * exactly. JSON through and through, so any journal can store it.
 */
export const NodeResult = Schema.Struct({
  /** The exit it leaves by; absent for a node's only exit. */
  handle: Schema.optional(HandleName),
  output: Schema.optional(JsonValue),
  /** Variables written, by name. */
  writes: Schema.optional(JsonObject),
  /** Why an input node's answer did not read as expected: the node asks again. */
  invalid: Schema.optional(Schema.String)
}).annotations({ identifier: "WorkflowNodeResult" })
export type NodeResult = typeof NodeResult.Type
