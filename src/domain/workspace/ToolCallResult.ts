/**
 * What one HTTP tool call sent and got, as answers show it: the shapes a
 * workspace tool's test, an AI agent tool's test and (later) a run's trace
 * share. A secret's value never appears in them: the request shows `••••`
 * after the reference's prefix, and the answer has every occurrence of a
 * value it used replaced (see `SecretMask`).
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { JsonValue } from "../Json.js"
import { HttpMethod, ToolName } from "./HttpToolDefinition.js"
import { SecretName, WorkspaceToolId } from "./Ids.js"

const Count = Schema.Number.pipe(Schema.int(), Schema.nonNegative())

/** How many characters of an upstream response body a test shows. */
export const TOOL_TEST_BODY_PREVIEW = 16_384

/** The request a call sent, after its templates were filled; secrets read `••••` after their prefix. */
export const ResolvedToolRequest = Schema.Struct({
  method: HttpMethod,
  url: Schema.String.pipe(Schema.maxLength(8192)),
  headers: Schema.Record({ key: Schema.String, value: Schema.String }),
  body: Schema.NullOr(Schema.String.pipe(Schema.maxLength(65_536))),
  /** The vault secrets the request used, by name. */
  secretsUsed: Schema.Array(SecretName)
}).annotations({ identifier: "ResolvedToolRequest" })
export type ResolvedToolRequest = typeof ResolvedToolRequest.Type

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
export type ToolTestResponse = typeof ToolTestResponse.Type

/** Why an upstream's answer fails the call: a status other than 2xx, or a body over the tool's `maxResponseBytes`. */
export const ToolTestFailure = Schema.Struct({
  kind: Schema.Literal("http-status", "response-too-large"),
  message: Schema.String.pipe(Schema.maxLength(2000))
}).annotations({ identifier: "ToolTestFailure" })
export type ToolTestFailure = typeof ToolTestFailure.Type

/**
 * The outcome of a workspace tool's test call (as an AI agent tool's test
 * has it). Any answer of the upstream is a result (`ok` false with `error`
 * when it fails the call); no answer at all is a 502 `UpstreamFailed`, and a
 * time-out a 504 `Timeout`. Nothing is stored.
 */
export const WorkspaceToolTestResult = Schema.Struct({
  ok: Schema.Boolean,
  toolId: WorkspaceToolId,
  name: ToolName,
  latencyMs: Count,
  request: ResolvedToolRequest,
  response: ToolTestResponse,
  /** What a model would receive: the parsed JSON or text of the answer; null when not ok. */
  output: Schema.NullOr(JsonValue),
  error: Schema.NullOr(ToolTestFailure)
}).annotations({ identifier: "WorkspaceToolTestResult" })
export type WorkspaceToolTestResult = typeof WorkspaceToolTestResult.Type

/** The test call's input: the arguments a model or a flow would send. */
export const WorkspaceToolTestRequest = Schema.Struct({
  input: Schema.optionalWith(Schema.Record({ key: Schema.String, value: JsonValue }), { default: () => ({}) })
}).annotations({ identifier: "WorkspaceToolTestRequest", parseOptions: { onExcessProperty: "error" } })

/** The input of a tool call does not satisfy the tool's input schema, or cannot be sent as it is. */
export class ToolInputInvalid extends Schema.TaggedError<ToolInputInvalid>()(
  "ToolInputInvalid",
  {
    message: Schema.String,
    /** Each violation with the JSON pointer of the value it concerns. */
    problems: Schema.Array(Schema.Struct({ pointer: Schema.String, message: Schema.String }))
  },
  HttpApiSchema.annotations({ status: 400, description: "The input does not satisfy the tool's input schema" })
) {}
