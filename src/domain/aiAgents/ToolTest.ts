import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { JsonObject, JsonValue } from "../Json.js"
import { ToolName } from "../workspace/HttpToolDefinition.js"
import {
  ResolvedToolRequest,
  TOOL_TEST_BODY_PREVIEW,
  ToolTestFailure,
  ToolTestResponse
} from "../workspace/ToolCallResult.js"
import { AiAgentToolId } from "./Ids.js"
import { AiAgentToolKind } from "./ToolConfig.js"

const Count = Schema.Number.pipe(Schema.int(), Schema.nonNegative())

/** A test call of a tool: the arguments the model would send, checked against the tool's input schema. */
export const AiAgentToolTestRequest = Schema.Struct({
  input: Schema.optionalWith(JsonObject, { default: () => ({}) })
}).annotations({ identifier: "AiAgentToolTestRequest", parseOptions: { onExcessProperty: "error" } })

// The request and answer shapes are the workspace tool-call service's own (one shape for every HTTP tool).
export { ResolvedToolRequest, TOOL_TEST_BODY_PREVIEW, ToolTestFailure, ToolTestResponse }

/**
 * The outcome of one test call. Any answer of the upstream is a result (`ok`
 * false with `error` when it fails the call); no answer at all is a 502
 * `UpstreamFailed`, and a time-out a 504. Built-ins run as dry runs:
 * `remember` stores nothing and `handoff` hands nothing over.
 */
export const AiAgentToolTestResult = Schema.Struct({
  ok: Schema.Boolean,
  toolId: AiAgentToolId,
  name: ToolName,
  kind: AiAgentToolKind,
  latencyMs: Count,
  /** The request sent; null for built-ins. */
  request: Schema.NullOr(ResolvedToolRequest),
  /** The upstream's answer; null for built-ins. */
  response: Schema.NullOr(ToolTestResponse),
  /** What the model would receive: the parsed JSON or text of the answer, or the built-in's result; null when not ok. */
  output: Schema.NullOr(JsonValue),
  error: Schema.NullOr(ToolTestFailure)
}).annotations({ identifier: "AiAgentToolTestResult" })
export type AiAgentToolTestResult = typeof AiAgentToolTestResult.Type

/** The test input does not satisfy the tool's input schema. */
export class AiAgentToolInputInvalid extends Schema.TaggedError<AiAgentToolInputInvalid>()(
  "AiAgentToolInputInvalid",
  {
    message: Schema.String,
    /** Each violation with the JSON pointer of the value it concerns. */
    problems: Schema.Array(Schema.Struct({ pointer: Schema.String, message: Schema.String }))
  },
  HttpApiSchema.annotations({ status: 400, description: "The input does not satisfy the tool's input schema" })
) {}
