import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { Actor } from "../../domain/identity/Actor.js"
import { WorkspaceId } from "../../domain/identity/Ids.js"
import type { ErrorReport } from "../../domain/workspace/ErrorReport.js"
import { ErrorReportId } from "../../domain/workspace/Ids.js"

/** A report to record: what the UI sent, who sent it, and its fingerprint. */
export interface ErrorReportWrite extends Omit<typeof ErrorReport.jsonCreate.Type, "context"> {
  readonly id: ErrorReportId
  readonly workspaceId: WorkspaceId
  readonly reportedBy: Actor
  readonly fingerprint: string
  readonly context: string
  readonly at: Date
}

/** The record of an error after a report: its id, how often it was seen, first and last. */
export const ErrorCount = Schema.Struct({
  id: ErrorReportId,
  occurrences: Schema.Number,
  firstSeenAt: Schema.DateFromSelf,
  lastSeenAt: Schema.DateFromSelf
})

/** An error as an operator lists it. */
export const ErrorSummary = Schema.Struct({
  ...ErrorCount.fields,
  workspaceId: WorkspaceId,
  fingerprint: Schema.String,
  severity: Schema.String,
  errorName: Schema.NullOr(Schema.String),
  message: Schema.String,
  traceId: Schema.NullOr(Schema.String),
  route: Schema.NullOr(Schema.String),
  status: Schema.NullOr(Schema.Number),
  reportedBy: Schema.parseJson(Actor)
})
export type ErrorSummary = typeof ErrorSummary.Type

/** `error_reports`: one row per workspace and fingerprint, counting its repeats. */
export class ErrorReportRepo extends Effect.Service<ErrorReportRepo>()("parley/persistence/ErrorReportRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const record = SqlSchema.single({
      Request: Schema.Any as Schema.Schema<ErrorReportWrite>,
      Result: ErrorCount,
      execute: ({ at, reportedBy, ...report }) =>
        sql`INSERT INTO error_reports ${
          sql.insert({ ...report, reportedBy: JSON.stringify(reportedBy), firstSeenAt: at, lastSeenAt: at })
        }
          ON CONFLICT (workspace_id, fingerprint) DO UPDATE SET
            occurrences = error_reports.occurrences + 1, last_seen_at = excluded.last_seen_at,
            reported_by = excluded.reported_by, severity = excluded.severity, error_name = excluded.error_name,
            message = excluded.message, stack = excluded.stack, trace_id = excluded.trace_id,
            route = excluded.route, status = excluded.status, bot = excluded.bot, url = excluded.url,
            user_agent = excluded.user_agent, app_version = excluded.app_version, context = excluded.context
          RETURNING id, occurrences, first_seen_at, last_seen_at`
    })

    const recent = SqlSchema.findAll({
      Request: Schema.Struct({ workspaceId: Schema.NullOr(WorkspaceId), limit: Schema.Number }),
      Result: ErrorSummary,
      execute: ({ limit, workspaceId }) =>
        sql`SELECT id, occurrences, first_seen_at, last_seen_at, workspace_id, fingerprint, severity, error_name,
            message, trace_id, route, status, reported_by::text AS reported_by
          FROM error_reports
          ${workspaceId === null ? sql`` : sql`WHERE workspace_id = ${workspaceId}`}
          ORDER BY last_seen_at DESC, id LIMIT ${limit}`
    })

    return {
      /** Record a report: a new error, or one more occurrence of a known one (keeping its newest details). */
      record: (report: ErrorReportWrite) =>
        record(report).pipe(Effect.orDie, Effect.withSpan("ErrorReportRepo.record")),
      /** The most recently seen errors, of one workspace or of all. */
      recent: (workspaceId: WorkspaceId | null, limit: number) =>
        recent({ workspaceId, limit }).pipe(Effect.orDie, Effect.withSpan("ErrorReportRepo.recent"))
    } as const
  })
}) {}
