/**
 * Proving the factors of an account that is already signed in: the password,
 * and a code (TOTP or recovery) when the account has MFA. Changes to how an
 * account authenticates (its password, its MFA) and re-authentication use
 * `prove`, so each asks for every factor the account has, within the same
 * limits, and a code is accepted once.
 *
 * Failures are counted outside the transaction that checks them, so a refusal
 * cannot roll back its own count; what a success spends (a TOTP step, a
 * recovery code) commits with the change it allowed.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Redacted } from "effect"
import type { UserId } from "../../domain/identity/Ids.js"
import { InvalidCredentials } from "../../domain/identity/Login.js"
import { InvalidMfaCode } from "../../domain/identity/Mfa.js"
import { RecoveryCodeRepo } from "../../persistence/identity/RecoveryCodeRepo.js"
import { UserRepo, type UserRow } from "../../persistence/identity/UserRepo.js"
import { transaction } from "../../persistence/Transaction.js"
import { normaliseRecoveryCode } from "../OpaqueTokens.js"
import { PasswordHasher } from "../PasswordHasher.js"
import { RateLimiter } from "../RateLimiter.js"
import { SecretBox } from "../SecretBox.js"
import { Totp } from "../Totp.js"
import * as Rules from "./RateRules.js"

/** The context TOTP seeds are sealed under. */
export const TOTP_SEAL_CONTEXT = "totp-secret"

/** Whether a code is a TOTP code (six digits) rather than a recovery code. */
export const isTotpCode = (code: string) => /^\d{6}$/.test(code)

/** What a signed-in user presents to prove every factor again. */
export interface Proof {
  readonly password: Redacted.Redacted<string>
  readonly code: Option.Option<Redacted.Redacted<string>>
}

export class Factors extends Effect.Service<Factors>()("parley/services/identity/Factors", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const users = yield* UserRepo
    const codes = yield* RecoveryCodeRepo
    const totp = yield* Totp
    const box = yield* SecretBox
    const hasher = yield* PasswordHasher
    const limiter = yield* RateLimiter

    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))
    const wrongCode = new InvalidMfaCode({ message: "The code is wrong, expired or already used" })
    const missingCode = new InvalidMfaCode({
      message: "This account has MFA: send a code from the authenticator app or a recovery code too"
    })
    const wrongPassword = new InvalidCredentials({ message: "The password is wrong" })

    /**
     * Check a code against a user (the row locked by the caller's transaction):
     * a TOTP code of a time step not used before (the step is then kept), or an
     * unused recovery code (then spent).
     */
    const acceptCode = (user: UserRow, code: string, at: Date) =>
      Effect.gen(function*() {
        if (isTotpCode(code)) {
          if (user.totpSecret === null) return false
          const secret = yield* Effect.orDie(box.openString(user.totpSecret, TOTP_SEAL_CONTEXT))
          const step = yield* totp.verify({ secret, code, at, lastUsedStep: user.totpLastStep })
          if (Option.isNone(step)) return false
          yield* users.update(user.id, { totpLastStep: step.value }, at)
          return true
        }
        // Recovery codes share a salt: hash the candidate once, then look it up.
        const stored = yield* codes.oneUnused(user.id)
        if (Option.isNone(stored)) return false
        const candidate = yield* hasher.hashLike(Redacted.make(normaliseRecoveryCode(code)), stored.value)
        return Option.isSome(candidate) && (yield* codes.spend(user.id, candidate.value, at))
      })

    type Checked<A> =
      | { readonly _tag: "Proved"; readonly value: A }
      | { readonly _tag: "Refused"; readonly error: InvalidCredentials | InvalidMfaCode }

    /**
     * Prove every factor of a signed-in user, then run `action` with the user
     * row locked, in the same transaction. Every attempt counts against the
     * user's password checks (10 per 15 minutes); wrong codes count against
     * the account's MFA failures, and past their limit no code is checked.
     */
    const prove = <A, E, R>(
      userId: UserId,
      proof: Proof,
      action: (user: UserRow, at: Date) => Effect.Effect<A, E, R>
    ) =>
      Effect.gen(function*() {
        yield* limiter.consume(Rules.passwordChecksPerUser, userId)
        yield* Rules.refuseWhenOver(limiter, Rules.mfaFailuresPerAccount, userId)
        // The slow hash is checked before the transaction, so no row stays locked meanwhile.
        const before = Option.getOrThrow(yield* users.findById(userId))
        if (!(yield* hasher.verify(proof.password, before.passwordHash))) return yield* Effect.fail(wrongPassword)
        const checked: Checked<A> = yield* Effect.gen(function*() {
          const at = yield* now
          const user = Option.getOrThrow(yield* users.lockById(userId))
          if (user.passwordHash !== before.passwordHash) return { _tag: "Refused", error: wrongPassword } as const
          if (user.mfaEnabledAt !== null) {
            if (Option.isNone(proof.code)) return { _tag: "Refused", error: missingCode } as const
            if (!(yield* acceptCode(user, Redacted.value(proof.code.value), at))) {
              return { _tag: "Refused", error: wrongCode } as const
            }
          }
          return { _tag: "Proved", value: yield* action(user, at) } as const
        }).pipe(transactional)
        if (checked._tag === "Refused") {
          if (checked.error === wrongCode) {
            yield* Effect.ignore(limiter.consume(Rules.mfaFailuresPerAccount, userId))
          }
          return yield* Effect.fail(checked.error)
        }
        return checked.value
      })

    return { acceptCode, prove } as const
  })
}) {}
