/**
 * What the operator of a Parley installation does to accounts, from the
 * command line (`parley users …`, `parley sessions …`): disable an account
 * (an employee leaving, a compromised account) or enable it again, reset the
 * MFA of a user who lost every second factor, and sign a user, or every user,
 * out. Each takes effect on every running node at once
 * (announced) and is recorded in the audit log of the workspaces concerned,
 * acted by `system` and shown as the operator who ran it.
 */
import { SqlClient } from "@effect/sql"
import { Clock, DateTime, Effect, Option, Schema } from "effect"
import * as Os from "node:os"
import { type SecurityEvent, securityNoticeEmail } from "../../domain/identity/Emails.js"
import type { UserId, WorkspaceId } from "../../domain/identity/Ids.js"
import type { Origin } from "../../domain/identity/Origin.js"
import { ApiTokenRepo } from "../../persistence/identity/ApiTokenRepo.js"
import { OneTimeTokenRepo } from "../../persistence/identity/OneTimeTokenRepo.js"
import { RecoveryCodeRepo } from "../../persistence/identity/RecoveryCodeRepo.js"
import { SessionRepo } from "../../persistence/identity/SessionRepo.js"
import { UserRepo, type UserRow } from "../../persistence/identity/UserRepo.js"
import { WorkspaceRepo } from "../../persistence/identity/WorkspaceRepo.js"
import { transaction } from "../../persistence/Transaction.js"
import { Mailer } from "../../providers/Mailer.js"
import { AuditLog } from "../AuditLog.js"
import { AccountAudit, type AccountEvent } from "./AccountAudit.js"
import { announceChanges, type IdentityChange } from "./IdentityDirectory.js"

/** No account has this email address. */
export class AccountNotFound extends Schema.TaggedError<AccountNotFound>()("AccountNotFound", {
  email: Schema.String,
  message: Schema.String
}) {}

/** What resetting an account's MFA ended. */
export interface MfaReset {
  readonly userId: UserId
  readonly wasEnabled: boolean
  readonly sessionsEnded: number
}

/** What disabling an account ended. */
export interface Disabled {
  readonly userId: UserId
  readonly alreadyDisabled: boolean
  readonly sessionsEnded: number
  readonly tokensRevoked: number
}

const operator = () => {
  let name = "unknown"
  try {
    name = Os.userInfo().username
  } catch {
    // no user database entry (some containers)
  }
  return { actor: { kind: "system" } as const, display: `operator ${name} (parley CLI)` }
}

const cliOrigin: Origin = { ipAddress: null, userAgent: "parley-cli", traceId: null }

export class AccountAdmin extends Effect.Service<AccountAdmin>()("parley/services/identity/AccountAdmin", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const users = yield* UserRepo
    const sessions = yield* SessionRepo
    const oneTime = yield* OneTimeTokenRepo
    const tokens = yield* ApiTokenRepo
    const workspaces = yield* WorkspaceRepo
    const audit = yield* AccountAudit
    const log = yield* AuditLog
    const codes = yield* RecoveryCodeRepo
    const mailer = yield* Mailer

    // The operator's process caches nothing: it only announces, so running nodes drop what changed.
    const announce = (...changes: ReadonlyArray<IdentityChange>) =>
      announceChanges(...changes).pipe(Effect.provideService(SqlClient.SqlClient, sql))

    /** Tell the account's owner; the command waits for the mail, and a failure to send is only a warning. */
    const notify = (user: UserRow, event: SecurityEvent, at: Date) =>
      mailer.send(
        securityNoticeEmail({ to: user.email, displayName: user.displayName, event, at: DateTime.unsafeFromDate(at) })
      ).pipe(Effect.catchAll((error) => Effect.logWarning(`Security notice not sent: ${error.message}`)))

    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const find = (email: string) =>
      Effect.flatMap(users.findByEmail(email.trim().toLowerCase()), (user) =>
        Option.match(user, {
          onNone: () => Effect.fail(new AccountNotFound({ email, message: `No account has the address ${email}` })),
          onSome: (user) => Effect.succeed(user as UserRow)
        }))

    const record = (userId: UserId, event: AccountEvent) => audit.record(userId, cliOrigin, event, operator())

    /** End every session of a user, announced. */
    const endSessions = (userId: UserId, reason: string, at: Date) =>
      Effect.gen(function*() {
        const ended = yield* sessions.revoke({ userId }, reason, at)
        yield* announce(...ended.map((id) => ({ kind: "session", id }) as const))
        return ended.length
      })

    /**
     * Disable an account: it cannot sign in; its sessions end, its links
     * (reset, verification, MFA challenges) stop working, and the API tokens it
     * created are revoked, in every workspace.
     */
    const disable = Effect.fn("AccountAdmin.disable")(function*(email: string) {
      const found = yield* find(email)
      const outcome = yield* Effect.gen(function*() {
        const at = yield* now
        const user = Option.getOrThrow(yield* users.lockById(found.id))
        const alreadyDisabled = user.disabledAt !== null
        if (!alreadyDisabled) yield* users.update(user.id, { disabledAt: at }, at)
        for (const purpose of ["password-reset", "email-verification", "mfa-challenge"] as const) {
          yield* oneTime.spendAll(user.id, purpose, at)
        }
        const sessionsEnded = yield* endSessions(user.id, "account-disabled", at)
        const revoked = yield* tokens.revokeCreatedBy(user.id, at)
        yield* announce(
          { kind: "user", id: user.id },
          ...revoked.map((token) => ({ kind: "token", id: token.id }) as const)
        )
        yield* record(user.id, {
          action: "account.disabled",
          resourceType: "user",
          resourceId: user.id,
          summary: {
            before: { disabled: alreadyDisabled },
            after: { disabled: true, sessionsEnded, tokensRevoked: revoked.map((token) => token.id) }
          }
        })
        return {
          user,
          at,
          disabled: {
            userId: user.id,
            alreadyDisabled,
            sessionsEnded,
            tokensRevoked: revoked.length
          } satisfies Disabled
        }
      }).pipe(transactional)
      if (!outcome.disabled.alreadyDisabled) yield* notify(outcome.user, "account-disabled", outcome.at)
      return outcome.disabled
    })

    /**
     * Turn MFA off for a user who lost both their authenticator and their
     * recovery codes, once the operator has checked who they are out of band
     * (ASVS 6.4.4): the seed and the codes go, every session ends, and the
     * user is told by mail. They sign in with their password and enrol again.
     */
    const resetMfa = Effect.fn("AccountAdmin.resetMfa")(function*(email: string) {
      const found = yield* find(email)
      const outcome = yield* Effect.gen(function*() {
        const at = yield* now
        const user = Option.getOrThrow(yield* users.lockById(found.id))
        const wasEnabled = user.mfaEnabledAt !== null
        yield* users.update(user.id, {
          totpSecret: null,
          totpPendingSecret: null,
          totpPendingExpiresAt: null,
          totpLastStep: null,
          mfaEnabledAt: null
        }, at)
        yield* codes.replace(user.id, [])
        yield* oneTime.spendAll(user.id, "mfa-challenge", at)
        const sessionsEnded = yield* endSessions(user.id, "mfa-reset-by-operator", at)
        yield* announce({ kind: "user", id: user.id })
        yield* record(user.id, {
          action: "account.mfa-reset",
          resourceType: "user",
          resourceId: user.id,
          summary: { before: { mfaEnabled: wasEnabled }, after: { mfaEnabled: false, sessionsEnded } }
        })
        return { user, at, reset: { userId: user.id, wasEnabled, sessionsEnded } satisfies MfaReset }
      }).pipe(transactional)
      if (outcome.reset.wasEnabled) yield* notify(outcome.user, "mfa-reset", outcome.at)
      return outcome.reset
    })

    /** Let a disabled account sign in again (its revoked sessions and tokens stay revoked). */
    const enable = Effect.fn("AccountAdmin.enable")(function*(email: string) {
      const found = yield* find(email)
      return yield* Effect.gen(function*() {
        const at = yield* now
        const user = Option.getOrThrow(yield* users.lockById(found.id))
        if (user.disabledAt === null) return { userId: user.id, wasDisabled: false }
        yield* users.update(user.id, { disabledAt: null }, at)
        yield* announce({ kind: "user", id: user.id })
        yield* record(user.id, {
          action: "account.enabled",
          resourceType: "user",
          resourceId: user.id,
          summary: { before: { disabled: true }, after: { disabled: false } }
        })
        return { userId: user.id, wasDisabled: true }
      }).pipe(transactional)
    })

    /** Sign one user out of every session. */
    const signOutUser = Effect.fn("AccountAdmin.signOutUser")(function*(email: string) {
      const user = yield* find(email)
      return yield* Effect.gen(function*() {
        const at = yield* now
        const ended = yield* endSessions(user.id, "ended-by-operator", at)
        yield* record(user.id, {
          action: "auth.sessions.revoked",
          resourceType: "session",
          resourceId: null,
          summary: { before: null, after: { revoked: ended, reason: "ended-by-operator" } }
        })
        return ended
      }).pipe(transactional)
    })

    /** Sign every user out of every session (after a suspected key or database compromise, say). */
    const signOutEveryone = Effect.fn("AccountAdmin.signOutEveryone")(function*() {
      return yield* Effect.gen(function*() {
        const at = yield* now
        const ended = yield* sessions.revoke({}, "ended-by-operator", at)
        yield* announce({ kind: "everything" })
        const by = operator()
        const all: ReadonlyArray<WorkspaceId> = yield* workspaces.allIds()
        yield* log.appendMany(all, {
          actor: by.actor,
          actorDisplay: by.display,
          action: "auth.sessions.revoked-everywhere",
          resourceType: "session",
          resourceId: null,
          summary: { before: null, after: { revoked: ended.length, reason: "ended-by-operator" } },
          traceId: null,
          ipAddress: null,
          userAgent: cliOrigin.userAgent
        })
        return ended.length
      }).pipe(transactional)
    })

    return { disable, enable, resetMfa, signOutUser, signOutEveryone } as const
  })
}) {}
