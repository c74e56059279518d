/**
 * Multi-factor authentication with TOTP. Enrolling needs the password again;
 * the seed stays pending (sealed with the master key) until a first code
 * proves the authenticator has it; then MFA is on, ten single-use recovery
 * codes (stored as hashes) are shown once, and every other session ends. A
 * code is accepted once: the last accepted time step is kept. A login that
 * needs MFA is finished with its challenge token and a code or a recovery code.
 */
import { SqlClient } from "@effect/sql"
import { Clock, DateTime, Effect, Option, Redacted } from "effect"
import { type SecurityEvent, securityNoticeEmail } from "../../domain/identity/Emails.js"
import type { SessionId, UserId } from "../../domain/identity/Ids.js"
import { InvalidCredentials } from "../../domain/identity/Login.js"
import {
  InvalidMfaCode,
  MfaAlreadyEnabled,
  MfaNotEnabled,
  MfaNotEnrolled,
  RECOVERY_CODE_COUNT
} from "../../domain/identity/Mfa.js"
import { InvalidToken, TokenExpired } from "../../domain/identity/OneTimeToken.js"
import { MFA_ENROLMENT_TTL_SECONDS } from "../../domain/identity/SessionPolicy.js"
import { OneTimeTokenRepo } from "../../persistence/identity/OneTimeTokenRepo.js"
import { RecoveryCodeRepo } from "../../persistence/identity/RecoveryCodeRepo.js"
import { UserRepo, type UserRow } from "../../persistence/identity/UserRepo.js"
import { Mailer } from "../../providers/Mailer.js"
import { generateRecoveryCode, hashToken, normaliseRecoveryCode } from "../OpaqueTokens.js"
import { PasswordHasher } from "../PasswordHasher.js"
import { RateLimiter } from "../RateLimiter.js"
import { SecretBox } from "../SecretBox.js"
import { Totp } from "../Totp.js"
import { AccountAudit } from "./AccountAudit.js"
import type { Origin } from "./Origin.js"
import * as Rules from "./RateRules.js"
import { Sessions } from "./Sessions.js"

const SEAL_CONTEXT = "totp-secret"
const ISSUER = "Parley"

const isTotpCode = (code: string) => /^\d{6}$/.test(code)

export class Mfa extends Effect.Service<Mfa>()("parley/services/identity/Mfa", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const users = yield* UserRepo
    const codes = yield* RecoveryCodeRepo
    const oneTime = yield* OneTimeTokenRepo
    const totp = yield* Totp
    const box = yield* SecretBox
    const hasher = yield* PasswordHasher
    const limiter = yield* RateLimiter
    const sessions = yield* Sessions
    const audit = yield* AccountAudit
    const mailer = yield* Mailer

    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))
    const wrongCode = new InvalidMfaCode({ message: "The code is wrong, expired or already used" })

    const notify = (user: UserRow, event: SecurityEvent, at: Date) =>
      mailer.send(
        securityNoticeEmail({ to: user.email, displayName: user.displayName, event, at: DateTime.unsafeFromDate(at) })
      )
        .pipe(Effect.catchAll(() => Effect.logWarning("Security notice not sent")), Effect.forkDaemon, Effect.asVoid)

    const lockUser = (userId: UserId) => Effect.map(users.lockById(userId), Option.getOrThrow)

    /**
     * Check a code against a user (locked): a TOTP code of a step not used
     * before (the step is then kept), or an unused recovery code (then spent).
     */
    const acceptCode = (user: UserRow, code: string, at: Date) =>
      Effect.gen(function*() {
        if (isTotpCode(code)) {
          if (user.totpSecret === null) return false
          const secret = yield* Effect.orDie(box.openString(user.totpSecret, SEAL_CONTEXT))
          const step = yield* totp.verify({ secret, code, at, lastUsedStep: user.totpLastStep })
          if (Option.isNone(step)) return false
          yield* users.update(user.id, { totpLastStep: step.value }, at)
          return true
        }
        return yield* codes.spend(user.id, hashToken(normaliseRecoveryCode(code)), at)
      })

    /** Begin enrolment: a new seed, pending until verified. */
    const enroll = Effect.fn("Mfa.enroll")(function*(userId: UserId, password: Redacted.Redacted<string>) {
      yield* limiter.consume(Rules.passwordChecksPerUser, userId)
      return yield* Effect.gen(function*() {
        const at = yield* now
        const user = yield* lockUser(userId)
        if (user.mfaEnabledAt !== null) {
          return yield* new MfaAlreadyEnabled({ message: "MFA is already on; disable it first to enrol anew" })
        }
        if (!(yield* hasher.verify(password, user.passwordHash))) {
          return yield* new InvalidCredentials({ message: "The password is wrong" })
        }
        const secret = totp.generateSecret()
        yield* users.update(userId, {
          totpPendingSecret: yield* box.seal(secret, SEAL_CONTEXT),
          totpPendingExpiresAt: new Date(at.getTime() + MFA_ENROLMENT_TTL_SECONDS * 1000)
        }, at)
        return {
          secret: Redacted.make(secret),
          otpauthUri: Redacted.make(totp.uri({ secret, accountName: user.email, issuer: ISSUER })),
          issuer: ISSUER,
          accountName: user.email,
          algorithm: "SHA1",
          digits: 6,
          period: 30
        } as const
      }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die))
    })

    /** Finish enrolment with a first code: MFA on, recovery codes issued, other sessions ended. */
    const verify = Effect.fn("Mfa.verify")(
      function*(userId: UserId, code: Redacted.Redacted<string>, current: SessionId, origin: Origin) {
        yield* Rules.refuseWhenOver(limiter, Rules.mfaFailuresPerAccount, userId)
        const result = yield* Effect.gen(function*() {
          const at = yield* now
          const user = yield* lockUser(userId)
          if (user.mfaEnabledAt !== null) return yield* new MfaAlreadyEnabled({ message: "MFA is already on" })
          if (
            user.totpPendingSecret === null || user.totpPendingExpiresAt === null || user.totpPendingExpiresAt <= at
          ) {
            return yield* new MfaNotEnrolled({ message: "Enrol first: the enrolment is missing or has expired" })
          }
          const secret = yield* Effect.orDie(box.openString(user.totpPendingSecret, SEAL_CONTEXT))
          const step = yield* totp.verify({ secret, code: Redacted.value(code), at, lastUsedStep: null })
          if (Option.isNone(step)) return yield* Effect.fail(wrongCode)
          const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, generateRecoveryCode)
          yield* users.update(userId, {
            totpSecret: user.totpPendingSecret,
            totpPendingSecret: null,
            totpPendingExpiresAt: null,
            totpLastStep: step.value,
            mfaEnabledAt: at
          }, at)
          yield* codes.replace(userId, recoveryCodes.map(hashToken))
          yield* sessions.revokeAll(userId, origin, Option.some(current), "mfa-enabled")
          yield* audit.record(userId, origin, {
            action: "auth.mfa.enabled",
            resourceType: "user",
            resourceId: userId,
            summary: { before: { mfaEnabled: false }, after: { mfaEnabled: true } }
          })
          return { user, at, recoveryCodes }
        }).pipe(
          sql.withTransaction,
          Effect.catchTag("SqlError", Effect.die),
          Effect.tapErrorTag(
            "InvalidMfaCode",
            () => Effect.ignore(limiter.consume(Rules.mfaFailuresPerAccount, userId))
          )
        )
        yield* notify(result.user, "mfa-enabled", result.at)
        return {
          recoveryCodes: result.recoveryCodes.map((code) => Redacted.make(code)),
          enabledAt: DateTime.unsafeFromDate(result.at)
        }
      }
    )

    /** Turn MFA off with a current code or a recovery code. */
    const disable = Effect.fn("Mfa.disable")(
      function*(userId: UserId, code: Redacted.Redacted<string>, origin: Origin) {
        yield* limiter.consume(Rules.mfaAttemptsPerAddress, origin.ipAddress ?? "unknown")
        yield* Rules.refuseWhenOver(limiter, Rules.mfaFailuresPerAccount, userId)
        const outcome = yield* Effect.gen(function*() {
          const at = yield* now
          const user = yield* lockUser(userId)
          if (user.mfaEnabledAt === null) return yield* new MfaNotEnabled({ message: "MFA is not on" })
          if (!(yield* acceptCode(user, Redacted.value(code), at))) return { ok: false as const }
          yield* users.update(userId, { totpSecret: null, mfaEnabledAt: null, totpLastStep: null }, at)
          yield* codes.replace(userId, [])
          yield* audit.record(userId, origin, {
            action: "auth.mfa.disabled",
            resourceType: "user",
            resourceId: userId,
            summary: { before: { mfaEnabled: true }, after: { mfaEnabled: false } }
          })
          return { ok: true as const, user, at }
        }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die))
        if (!outcome.ok) {
          yield* limiter.consume(Rules.mfaFailuresPerAccount, userId).pipe(Effect.ignore)
          return yield* Effect.fail(wrongCode)
        }
        yield* notify(outcome.user, "mfa-disabled", outcome.at)
      }
    )

    type Challenge =
      | { readonly _tag: "Passed"; readonly userId: UserId }
      | { readonly _tag: "Refused"; readonly error: InvalidToken | TokenExpired | InvalidMfaCode }

    // Decided and committed in one transaction (a used step, a spent recovery code, a spent
    // challenge), then answered: a refusal must not roll back what it counted.
    const settle = (challengeToken: string, code: string, origin: Origin) =>
      Effect.gen(function*() {
        const at = yield* now
        const token = yield* oneTime.lock(hashToken(challengeToken), "mfa-challenge")
        if (Option.isNone(token) || token.value.usedAt !== null || token.value.userId === null) {
          return refused(
            new InvalidToken({ purpose: "mfa-challenge", message: "Sign in again: this challenge is not valid" })
          )
        }
        if (token.value.expiresAt <= at) {
          return refused(
            new TokenExpired({ purpose: "mfa-challenge", message: "Sign in again: the challenge expired" })
          )
        }
        const user = yield* lockUser(token.value.userId)
        if (!(yield* acceptCode(user, code, at))) {
          yield* audit.record(user.id, origin, {
            action: "auth.mfa.challenge-failed",
            resourceType: "user",
            resourceId: user.id,
            summary: { before: null, after: null }
          })
          return refused(wrongCode)
        }
        yield* oneTime.markUsed(token.value.tokenHash, at)
        yield* audit.record(user.id, origin, {
          action: "auth.login.succeeded",
          resourceType: "user",
          resourceId: user.id,
          summary: { before: null, after: { mfa: true, recoveryCode: !isTotpCode(code) } }
        })
        return { _tag: "Passed", userId: user.id } satisfies Challenge
      }).pipe(sql.withTransaction, Effect.orDie)

    const refused = (error: InvalidToken | TokenExpired | InvalidMfaCode): Challenge => ({ _tag: "Refused", error })

    /** Finish a login that needed MFA: the challenge token and a code give a session. */
    const challenge = Effect.fn("Mfa.challenge")(
      function*(challengeToken: Redacted.Redacted<string>, code: Redacted.Redacted<string>, origin: Origin) {
        yield* limiter.consume(Rules.mfaAttemptsPerAddress, origin.ipAddress ?? "unknown")
        const challengeKey = hashToken(Redacted.value(challengeToken))
        if (yield* limiter.peek(Rules.mfaChallengeFailures, challengeKey)) {
          return yield* new InvalidToken({ purpose: "mfa-challenge", message: "Too many wrong codes: sign in again" })
        }
        const outcome = yield* settle(Redacted.value(challengeToken), Redacted.value(code), origin)
        if (outcome._tag === "Refused") {
          if (outcome.error._tag === "InvalidMfaCode") {
            yield* Effect.ignore(limiter.consume(Rules.mfaChallengeFailures, challengeKey))
          }
          return yield* Effect.fail(outcome.error)
        }
        return yield* sessions.start(outcome.userId, origin)
      }
    )

    return { enroll, verify, disable, challenge } as const
  })
}) {}
