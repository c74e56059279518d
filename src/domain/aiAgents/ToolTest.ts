import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { JsonObject, JsonValue } from "../Json.js"
import { HttpMethod, ToolName } from "../workspace/HttpToolDefinition.js"
import { SecretName } from "../workspace/Ids.js"
import { AiAgentToolId } from "./Ids.js"
import { AiAgentToolKind } from "./ToolConfig.js"

const Count = Schema.Number.pipe(Schema.int(), Schema.nonNegative())

/** How many characters of an upstream response body a test shows. */
export const TOOL_TEST_BODY_PREVIEW = 16_384

/** A test call of a tool: the arguments the model would send, checked against the tool's input schema. */
export const AiAgentToolTestRequest = Schema.Struct({
  input: Schema.optionalWith(JsonObject, { default: () => ({}) })
}).annotations({ identifier: "AiAgentToolTestRequest", parseOptions: { onExcessProperty: "error" } })

/**
 * The request a test sent, after its templates were filled. A secret's value
 * never appears: it reads `••••`, after the reference's prefix (`Bearer ••••`).
 */
export const ResolvedToolRequest = Schema.Struct({
  method: HttpMethod,
  url: Schema.String.pipe(Schema.maxLength(8192)),
  headers: Schema.Record({ key: Schema.String, value: Schema.String }),
  body: Schema.NullOr(Schema.String.pipe(Schema.maxLength(65_536))),
  /** The vault secrets the request used, by name. */
  secretsUsed: Schema.Array(SecretName)
}).annotations({ identifier: "ResolvedToolRequest" })

/** The upstream's answer to a test: status, headers, and the start of the body. */
export const ToolTestResponse = Schema.Struct({
  status: Schema.Number.pipe(Schema.int(), Schema.between(100, 599)),
  headers: Schema.Record({ key: Schema.String, value: Schema.String }),
  contentType: Schema.NullOr(Schema.String.pipe(Schema.maxLength(200))),
  /** The size of the whole body as received. */
  sizeBytes: Count,
  /** The body as text, cut at 16,384 characters. */
  body: Schema.String.pipe(Schema.maxLength(TOOL_TEST_BODY_PREVIEW)),
  truncated: Schema.Boolean
}).annotations({ identifier: "ToolTestResponse" })

/** Why an upstream's answer fails the call: a status other than 2xx, or a body over the tool's `maxResponseBytes`. */
export const ToolTestFailure = Schema.Struct({
  kind: Schema.Literal("http-status", "response-too-large"),
  message: Schema.String.pipe(Schema.maxLength(2000))
}).annotations({ identifier: "ToolTestFailure" })

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
