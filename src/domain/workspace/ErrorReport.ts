import { Model } from "@effect/sql"
import { Schema } from "effect"
import { Actor } from "../identity/Actor.js"
import { UserAgent } from "../identity/ClientInfo.js"
import { WorkspaceId } from "../identity/Ids.js"
import { Sha256Hex } from "../Sha256Hex.js"
import { TraceId } from "../Trace.js"
import { HttpUrl } from "../Url.js"
import { ErrorReportId } from "./Ids.js"

const Text = (maxLength: number) => Schema.String.pipe(Schema.maxLength(maxLength))
const Nullable = <S extends Schema.Schema.Any>(schema: S) =>
  Schema.optionalWith(Schema.NullOr(schema), { default: () => null })

/** Extra facts about an error: up to 50 keys (1 to 64 characters) of short scalar values. */
export const ErrorContext = Schema.Record({
  key: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64)),
  value: Schema.Union(Text(1000), Schema.Number, Schema.Boolean, Schema.Null)
}).pipe(
  Schema.filter((context) => Object.keys(context).length <= 50 || "at most 50 context keys"),
  Schema.annotations({ identifier: "ErrorContext" })
)

/**
 * An error a UI met and reported, with what an operator needs to find it:
 * the trace id, the API route and status it got, and where it happened.
 * Reports of one error share a fingerprint, so they are counted together.
 */
export class ErrorReport extends Model.Class<ErrorReport>("ErrorReport")({
  id: Model.Generated(ErrorReportId),
  workspaceId: Model.FieldExcept("jsonCreate", "jsonUpdate")(WorkspaceId),
  reportedBy: Model.FieldExcept("jsonCreate", "jsonUpdate")(Actor),
  /**
   * Hex SHA-256 of the error's name, its message with numbers and ids blanked,
   * the top stack frame and the route: equal for repeats of one error.
   */
  fingerprint: Model.FieldExcept("jsonCreate", "jsonUpdate")(Sha256Hex),
  severity: Schema.optionalWith(Schema.Literal("fatal", "error", "warning"), { default: () => "error" }),
  /** The error's class or code, e.g. `TypeError` or `AssistantNotFound`. */
  errorName: Nullable(Text(200)),
  message: Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(2000)),
  stack: Nullable(Text(16_384)),
  /** The trace id of the failed API response, when the error came from one. */
  traceId: Nullable(TraceId),
  /** The API route that failed, as `METHOD /v1/path/{param}`. */
  route: Nullable(Text(300)),
  /** The HTTP status of the failed API response. */
  status: Nullable(Schema.Number.pipe(Schema.int(), Schema.between(100, 599))),
  /** The Assistant id or AI-agent slug in play, if any. */
  bot: Nullable(Text(200)),
  /** The page the UI was on. */
  url: Nullable(HttpUrl),
  userAgent: Nullable(UserAgent),
  appVersion: Nullable(Text(64)),
  context: Schema.optionalWith(ErrorContext, { default: () => ({}) }),
  createdAt: Model.DateTimeInsertFromDate
}) {}

/** The body of an error report; unknown fields are refused. */
export const ErrorReportSubmission = ErrorReport.jsonCreate.annotations({
  identifier: "ErrorReportSubmission",
  parseOptions: { onExcessProperty: "error" },
  examples: [{
    severity: "error",
    errorName: "AssistantNotFound",
    message: "No Assistant with this id exists in the current workspace",
    stack: null,
    traceId: TraceId.make("4bf92f3577b34da6a3ce929d0e0e4736"),
    route: "GET /v1/agents/{agent_id}",
    status: 404,
    bot: null,
    url: null,
    userAgent: null,
    appVersion: "1.4.2",
    context: { screen: "assistant-editor" }
  }]
})

/** The report was stored; how often its error has been seen in the workspace, this report included. */
export const ErrorReportAccepted = Schema.Struct({
  reportId: ErrorReportId,
  fingerprint: Sha256Hex,
  occurrences: Schema.Number.pipe(Schema.int(), Schema.positive()),
  firstSeenAt: Schema.DateTimeUtc,
  lastSeenAt: Schema.DateTimeUtc
}).annotations({ identifier: "ErrorReportAccepted" })
