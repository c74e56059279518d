/**
 * Errors the UIs meet, reported with their trace id, route and status. A
 * report is stored under its fingerprint (repeats of one error merge: one
 * more occurrence, the newest details kept), logged as a warning an operator
 * can search for, and listed by `parley errors list`. Each reporter may send
 * a few a minute (429 past it), counted in PostgreSQL, shared by every node.
 */
import { DateTime, Effect } from "effect"
import { v7 as uuidv7 } from "uuid"
import { actorOf, type Principal } from "../../domain/identity/Principal.js"
import { errorFingerprint } from "../../domain/workspace/ErrorFingerprint.js"
import type { ErrorReportAccepted, ErrorReportSubmission } from "../../domain/workspace/ErrorReport.js"
import type { ErrorReportId } from "../../domain/workspace/Ids.js"
import { ErrorReportRepo } from "../../persistence/workspace/ErrorReportRepo.js"
import { currentDate } from "../assistants/Assistants.js"
import { RateLimiter, type RateRule } from "../RateLimiter.js"

/** Reports one user (or API token) may send. */
export const errorReportsPerReporter: RateRule = { name: "error-reports.reporter", limit: 30, window: "1 minute" }

const reporterKey = (principal: Principal) =>
  principal._tag === "User" ? `user:${principal.userId}` : `token:${principal.tokenId}`

export class ErrorReports extends Effect.Service<ErrorReports>()("parley/services/workspace/ErrorReports", {
  effect: Effect.gen(function*() {
    const repo = yield* ErrorReportRepo
    const limiter = yield* RateLimiter

    /** Record a report from the principal's workspace; `RateLimited` past the reporter's limit. */
    const report = Effect.fn("ErrorReports.report")(
      function*(principal: Principal, submission: typeof ErrorReportSubmission.Type) {
        yield* limiter.consume(errorReportsPerReporter, reporterKey(principal))
        const fingerprint = errorFingerprint(submission)
        const counted = yield* repo.record({
          ...submission,
          context: JSON.stringify(submission.context),
          id: uuidv7() as ErrorReportId,
          workspaceId: principal.workspaceId,
          reportedBy: actorOf(principal),
          fingerprint,
          at: yield* currentDate
        })
        yield* Effect.logWarning("UI error reported").pipe(
          Effect.annotateLogs({
            workspaceId: principal.workspaceId,
            fingerprint,
            occurrences: counted.occurrences,
            severity: submission.severity,
            errorName: submission.errorName,
            errorMessage: submission.message.slice(0, 300),
            reportedTraceId: submission.traceId,
            route: submission.route,
            status: submission.status
          })
        )
        return {
          reportId: counted.id,
          fingerprint,
          occurrences: counted.occurrences,
          firstSeenAt: DateTime.unsafeFromDate(counted.firstSeenAt),
          lastSeenAt: DateTime.unsafeFromDate(counted.lastSeenAt)
        } satisfies typeof ErrorReportAccepted.Type
      }
    )

    return { report } as const
  }),
  dependencies: [ErrorReportRepo.Default]
}) {}
