/**
 * Multi-factor authentication with TOTP. Enrolling needs the password again;
 * the seed stays pending (sealed with the master key) until a first code
 * proves the authenticator has it; then MFA is on, ten single-use recovery
 * codes (stored as hashes) are shown once, and every other session ends. A
 * code is accepted once: the last accepted time step is kept. A login that
 * needs MFA is finished with its challenge token and a code or a recovery code.
 */
import { SqlClient } from "@effect/sql"
import { Clock, DateTime, Effect, Either, Option, Redacted } from "effect"
import type { RateLimited } from "../../domain/HttpErrors.js"
import { type SecurityEvent, securityNoticeEmail } from "../../domain/identity/Emails.js"
import type { SessionId, UserId } from "../../domain/identity/Ids.js"
import {
  InvalidMfaCode,
  MfaAlreadyEnabled,
  MfaNotEnabled,
  MfaNotEnrolled,
  RECOVERY_CODE_COUNT
} from "../../domain/identity/Mfa.js"
import { InvalidToken, TokenExpired } from "../../domain/identity/OneTimeToken.js"
import type { Origin } from "../../domain/identity/Origin.js"
import { MFA_ENROLMENT_TTL_SECONDS } from "../../domain/identity/SessionPolicy.js"
import { OneTimeTokenRepo } from "../../persistence/identity/OneTimeTokenRepo.js"
import { RecoveryCodeRepo } from "../../persistence/identity/RecoveryCodeRepo.js"
import { UserRepo, type UserRow } from "../../persistence/identity/UserRepo.js"
import { transaction } from "../../persistence/Transaction.js"
import { Mailer } from "../../providers/Mailer.js"
import { generateRecoveryCode, hashToken } from "../OpaqueTokens.js"
import { PasswordHasher } from "../PasswordHasher.js"
import { RateLimiter } from "../RateLimiter.js"
import { SecretBox } from "../SecretBox.js"
import { Totp } from "../Totp.js"
import { AccountAudit } from "./AccountAudit.js"
import { Factors, isTotpCode, TOTP_SEAL_CONTEXT } from "./Factors.js"
import { IdentityDirectory } from "./IdentityDirectory.js"
import * as Rules from "./RateRules.js"
import { Sessions } from "./Sessions.js"

const ISSUER = "Parley"

export class Mfa extends Effect.Service<Mfa>()("parley/services/identity/Mfa", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const users = yield* UserRepo
    const codes = yield* RecoveryCodeRepo
    const oneTime = yield* OneTimeTokenRepo
    const totp = yield* Totp
    const hasher = yield* PasswordHasher
    const factors = yield* Factors
    const directory = yield* IdentityDirectory
    const box = yield* SecretBox
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

    const alreadyOn = new MfaAlreadyEnabled({ message: "MFA is already on; disable it first to enrol anew" })

    /** Begin enrolment (the password proves the caller is the user): a new seed, pending until verified. */
    const enroll = Effect.fn("Mfa.enroll")(function*(userId: UserId, password: Redacted.Redacted<string>) {
      if (Option.getOrThrow(yield* users.findById(userId)).mfaEnabledAt !== null) return yield* Effect.fail(alreadyOn)
      const proof = { password, code: Option.none() }
      return yield* factors.prove(userId, proof, (user, at) =>
        Effect.gen(function*() {
          if (user.mfaEnabledAt !== null) return yield* Effect.fail(alreadyOn)
          const secret = totp.generateSecret()
          yield* users.update(userId, {
            totpPendingSecret: yield* box.seal(secret, TOTP_SEAL_CONTEXT),
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
        })).pipe(
          // A code is asked for only when MFA is on: then the answer is that it already is.
          Effect.catchTag("InvalidMfaCode", () => Effect.fail(alreadyOn))
        )
    })

    /** Finish enrolment with a first code: MFA on, recovery codes issued, other sessions ended. */
    const verify = Effect.fn("Mfa.verify")(
      function*(userId: UserId, code: Redacted.Redacted<string>, current: SessionId, origin: Origin) {
        yield* Rules.refuseWhenOver(limiter, Rules.mfaFailuresPerAccount, userId)
        // The pending seed and the code, checked without a lock first: the recovery codes' hashes
        // (scrypt, a second or so for ten) are made only for a right code, and outside the transaction.
        const pending = (user: UserRow, at: Date) =>
          Effect.gen(function*() {
            if (user.mfaEnabledAt !== null) return yield* new MfaAlreadyEnabled({ message: "MFA is already on" })
            if (
              user.totpPendingSecret === null || user.totpPendingExpiresAt === null || user.totpPendingExpiresAt <= at
            ) {
              return yield* new MfaNotEnrolled({ message: "Enrol first: the enrolment is missing or has expired" })
            }
            const secret = yield* Effect.orDie(box.openString(user.totpPendingSecret, TOTP_SEAL_CONTEXT))
            const step = yield* totp.verify({ secret, code: Redacted.value(code), at, lastUsedStep: null })
            if (Option.isNone(step)) return yield* Effect.fail(wrongCode)
            return step.value
          })
        const countFailure = <A, E extends { readonly _tag: string }, R>(effect: Effect.Effect<A, E, R>) =>
          Effect.tapError(effect, (error) =>
            error._tag === "InvalidMfaCode"
              ? Effect.ignore(limiter.consume(Rules.mfaFailuresPerAccount, userId))
              : Effect.void)
        const unlocked = Option.getOrThrow(yield* users.findById(userId))
        const step = yield* countFailure(pending(unlocked, yield* now))
        const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, generateRecoveryCode)
        const hashes = yield* hasher.hashAll(recoveryCodes.map((recoveryCode) => Redacted.make(recoveryCode)))
        const result = yield* Effect.gen(function*() {
          const at = yield* now
          const user = yield* lockUser(userId)
          // The code was right for this enrolment a moment ago (its step may have ended since, while
          // the codes were hashed): what must still hold is that the enrolment is the same one.
          if (user.mfaEnabledAt !== null) return yield* new MfaAlreadyEnabled({ message: "MFA is already on" })
          if (user.totpPendingSecret === null || user.totpPendingSecret !== unlocked.totpPendingSecret) {
            return yield* new MfaNotEnrolled({ message: "The enrolment changed meanwhile: enrol again" })
          }
          yield* users.update(userId, {
            totpSecret: user.totpPendingSecret,
            totpPendingSecret: null,
            totpPendingExpiresAt: null,
            totpLastStep: step,
            mfaEnabledAt: at
          }, at)
          yield* codes.replace(userId, hashes)
          yield* directory.announce({ kind: "user", id: userId })
          yield* sessions.revokeAll(userId, origin, Option.some(current), "mfa-enabled")
          yield* audit.record(userId, origin, {
            action: "auth.mfa.enabled",
            resourceType: "user",
            resourceId: userId,
            summary: { before: { mfaEnabled: false }, after: { mfaEnabled: true } }
          })
          return { user, at, recoveryCodes }
        }).pipe(transactional)
        yield* notify(result.user, "mfa-enabled", result.at)
        return {
          recoveryCodes: result.recoveryCodes.map((code) => Redacted.make(code)),
          enabledAt: DateTime.unsafeFromDate(result.at)
        }
      }
    )

    /**
     * Turn MFA off: the password and a current code or a recovery code (every
     * factor, so a stolen session cannot weaken the account); optionally end
     * the user's other sessions.
     */
    const disable = Effect.fn("Mfa.disable")(
      function*(
        userId: UserId,
        request: { password: Redacted.Redacted<string>; code: Redacted.Redacted<string>; signOutOthers: boolean },
        current: SessionId,
        origin: Origin
      ) {
        yield* limiter.consume(Rules.mfaAttemptsPerAddress, origin.ipAddress ?? "unknown")
        const outcome = yield* factors.prove(
          userId,
          { password: request.password, code: Option.some(request.code) },
          (user, at) =>
            Effect.gen(function*() {
              if (user.mfaEnabledAt === null) return yield* new MfaNotEnabled({ message: "MFA is not on" })
              yield* users.update(userId, { totpSecret: null, mfaEnabledAt: null, totpLastStep: null }, at)
              yield* codes.replace(userId, [])
              yield* directory.announce({ kind: "user", id: userId })
              const sessionsEnded = request.signOutOthers
                ? yield* sessions.revokeAll(userId, origin, Option.some(current), "mfa-disabled")
                : 0
              yield* audit.record(userId, origin, {
                action: "auth.mfa.disabled",
                resourceType: "user",
                resourceId: userId,
                summary: { before: { mfaEnabled: true }, after: { mfaEnabled: false, sessionsEnded } }
              })
              return { user, at }
            })
        )
        yield* notify(outcome.user, "mfa-disabled", outcome.at)
      }
    )

    type Challenge =
      | { readonly _tag: "Passed"; readonly userId: UserId }
      | { readonly _tag: "Refused"; readonly error: InvalidToken | TokenExpired | RateLimited }
      | { readonly _tag: "WrongCode"; readonly userId: UserId }

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
        // The account's wrong codes, from every challenge and address: past the limit no code is checked,
        // so an attacker who has the password cannot spread guesses over many logins and addresses.
        const limited = yield* Effect.either(Rules.refuseWhenOver(limiter, Rules.mfaFailuresPerAccount, user.id))
        if (Either.isLeft(limited)) return refused(limited.left)
        if (!(yield* factors.acceptCode(user, code, at))) {
          yield* audit.record(user.id, origin, {
            action: "auth.mfa.challenge-failed",
            resourceType: "user",
            resourceId: user.id,
            summary: { before: null, after: null }
          })
          return { _tag: "WrongCode", userId: user.id } satisfies Challenge
        }
        yield* oneTime.markUsed(token.value.tokenHash, at)
        yield* audit.record(user.id, origin, {
          action: "auth.login.succeeded",
          resourceType: "user",
          resourceId: user.id,
          summary: { before: null, after: { mfa: true, recoveryCode: !isTotpCode(code) } }
        })
        return { _tag: "Passed", userId: user.id } satisfies Challenge
      }).pipe(transactional)

    const refused = (error: InvalidToken | TokenExpired | RateLimited): Challenge => ({ _tag: "Refused", error })

    /** Finish a login that needed MFA: the challenge token and a code give a session. */
    const challenge = Effect.fn("Mfa.challenge")(
      function*(challengeToken: Redacted.Redacted<string>, code: Redacted.Redacted<string>, origin: Origin) {
        yield* limiter.consume(Rules.mfaAttemptsPerAddress, origin.ipAddress ?? "unknown")
        const challengeKey = hashToken(Redacted.value(challengeToken))
        if (yield* limiter.peek(Rules.mfaChallengeFailures, challengeKey)) {
          return yield* new InvalidToken({ purpose: "mfa-challenge", message: "Too many wrong codes: sign in again" })
        }
        const outcome = yield* settle(Redacted.value(challengeToken), Redacted.value(code), origin)
        if (outcome._tag === "Refused") return yield* Effect.fail(outcome.error)
        if (outcome._tag === "WrongCode") {
          yield* Effect.ignore(limiter.consume(Rules.mfaChallengeFailures, challengeKey))
          yield* Effect.ignore(limiter.consume(Rules.mfaFailuresPerAccount, outcome.userId))
          return yield* Effect.fail(wrongCode)
        }
        return yield* sessions.start(outcome.userId, origin)
      }
    )

    return { enroll, verify, disable, challenge } as const
  })
}) {}
