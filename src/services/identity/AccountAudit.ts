/**
 * Account events (sign-ins, failed sign-ins, MFA and password changes,
 * sessions ended) belong to a person, not to one workspace: each is recorded
 * in the audit log of every workspace the person is a member of, so each
 * workspace's admins see what happened to their members' accounts.
 */
import { Effect, Option } from "effect"
import type { AuditActor } from "../../domain/identity/Actor.js"
import type { UserId } from "../../domain/identity/Ids.js"
import type { Origin } from "../../domain/identity/Origin.js"
import { UserRepo } from "../../persistence/identity/UserRepo.js"
import { WorkspaceRepo } from "../../persistence/identity/WorkspaceRepo.js"
import { type AuditEntry, AuditLog } from "../AuditLog.js"

/** What happened to an account: the audit fields a caller chooses. */
export type AccountEvent = Pick<AuditEntry, "action" | "resourceType" | "resourceId" | "summary">

export class AccountAudit extends Effect.Service<AccountAudit>()("parley/services/identity/AccountAudit", {
  effect: Effect.gen(function*() {
    const log = yield* AuditLog
    const users = yield* UserRepo
    const workspaces = yield* WorkspaceRepo

    /**
     * Record an event of a user's account in each of their workspaces, acted by
     * that user unless `by` says otherwise (an operator's command is `system`).
     */
    const record = Effect.fn("AccountAudit.record")(
      function*(userId: UserId, origin: Origin, event: AccountEvent, by?: { actor: AuditActor; display: string }) {
        const user = yield* users.findById(userId)
        const memberships = yield* workspaces.membershipsOf(userId)
        yield* log.appendMany(memberships.map((membership) => membership.workspace.id), {
          ...event,
          actor: by?.actor ?? { kind: "user", userId },
          actorDisplay: by?.display ??
            Option.match(user, { onNone: () => "a deleted user", onSome: (u) => u.displayName }),
          traceId: origin.traceId,
          ipAddress: origin.ipAddress,
          userAgent: origin.userAgent
        })
      }
    )

    return { record } as const
  })
}) {}
