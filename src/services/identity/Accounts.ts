/**
 * Accounts: signing up, signing in (the password step), verifying the email
 * address, and recovering a forgotten password. Answers never tell whether an
 * account exists where that would leak (login, forgot-password,
 * resend-verification), and take as long either way (an unknown email is
 * checked against a dummy hash; mail goes out in the background).
 */
import { SqlClient } from "@effect/sql"
import { Clock, DateTime, Effect, Option, Redacted } from "effect"
import { v7 as uuidv7 } from "uuid"
import { MailLinkUrl } from "../../config/Settings.js"
import { passwordResetEmail, securityNoticeEmail, verificationEmail } from "../../domain/identity/Emails.js"
import { EMAIL_VERIFICATION_TTL_SECONDS } from "../../domain/identity/EmailVerification.js"
import type { SessionId, UserId, WorkspaceId } from "../../domain/identity/Ids.js"
import { InvalidCredentials, MFA_CHALLENGE_TTL_SECONDS } from "../../domain/identity/Login.js"
import { InvalidToken, TokenExpired } from "../../domain/identity/OneTimeToken.js"
import type { Origin } from "../../domain/identity/Origin.js"
import { WeakPassword } from "../../domain/identity/Password.js"
import { passwordWeakness } from "../../domain/identity/PasswordPolicy.js"
import { PASSWORD_RESET_TTL_SECONDS } from "../../domain/identity/PasswordReset.js"
import { RECENT_AUTHENTICATION_SECONDS } from "../../domain/identity/SessionPolicy.js"
import type { SignupRequest } from "../../domain/identity/Signup.js"
import { AccountDisabled, EmailTaken } from "../../domain/identity/User.js"
import { type OneTimePurpose, OneTimeTokenRepo } from "../../persistence/identity/OneTimeTokenRepo.js"
import { toUser, UserRepo, type UserRow } from "../../persistence/identity/UserRepo.js"
import { WorkspaceRepo } from "../../persistence/identity/WorkspaceRepo.js"
import { transaction } from "../../persistence/Transaction.js"
import { Mailer, type MailMessage } from "../../providers/Mailer.js"
import { AuditLog } from "../AuditLog.js"
import { generateToken, hashToken } from "../OpaqueTokens.js"
import { PasswordHasher } from "../PasswordHasher.js"
import { RateLimiter, type RateRule } from "../RateLimiter.js"
import { AccountAudit } from "./AccountAudit.js"
import { DeviceCookies, type TrustedDevice } from "./DeviceCookies.js"
import { Factors, type Proof } from "./Factors.js"
import { IdentityDirectory } from "./IdentityDirectory.js"
import * as Rules from "./RateRules.js"
import { Sessions } from "./Sessions.js"

/** The outcome of a correct password: a session, or an MFA challenge to finish first. */
export type PasswordAccepted =
  | { readonly _tag: "SignedIn"; readonly userId: UserId }
  | { readonly _tag: "MfaRequired"; readonly challengeToken: string; readonly expiresIn: number }

/** A workspace slug made from a name: lowercase words joined by dashes. */
const slugFrom = (name: string): string => {
  const slug = name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "").slice(0, 50)
  return slug.length >= 2 ? slug : `workspace-${slug}`.replace(/-$/, "")
}

export class Accounts extends Effect.Service<Accounts>()("parley/services/identity/Accounts", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const users = yield* UserRepo
    const workspaces = yield* WorkspaceRepo
    const oneTime = yield* OneTimeTokenRepo
    const hasher = yield* PasswordHasher
    const limiter = yield* RateLimiter
    const devices = yield* DeviceCookies
    const mailer = yield* Mailer
    const sessions = yield* Sessions
    const factors = yield* Factors
    const directory = yield* IdentityDirectory
    const audit = yield* AccountAudit
    const log = yield* AuditLog
    const publicUrl = yield* MailLinkUrl

    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    /** Send mail without making the request wait for (or reveal) the mail server: failures are logged. */
    const sendInBackground = (message: MailMessage) =>
      mailer.send(message).pipe(
        Effect.catchAll((error) =>
          Effect.logWarning("Mail not sent").pipe(Effect.annotateLogs({ tag: message.tag, error: error.message }))
        ),
        Effect.forkDaemon,
        Effect.asVoid
      )

    /** Make a one-time token (only its hash is kept) for a purpose. */
    const oneTimeToken = (userId: UserId, purpose: OneTimePurpose, ttlSeconds: number, at: Date) =>
      Effect.gen(function*() {
        const token = generateToken()
        yield* oneTime.insert({
          tokenHash: hashToken(token),
          purpose,
          userId,
          sessionId: null,
          createdAt: at,
          expiresAt: new Date(at.getTime() + ttlSeconds * 1000)
        })
        return token
      })

    const weaknessMessages = {
      common: "This password is among the most common ones; choose another",
      "contains-email": "A password must not contain your email address",
      "context-word": "This password is made of words anyone could guess here (Parley, roles, your name); add more"
    } as const

    const weakness = (password: Redacted.Redacted<string>, email: string, names: ReadonlyArray<string> = []) =>
      Option.match(passwordWeakness(Redacted.value(password), email, names), {
        onNone: () => Effect.void,
        onSome: (reason) =>
          Effect.fail(
            new WeakPassword({ reason, message: weaknessMessages[reason] })
          )
      })

    /** Create the user, their personal workspace (they own it) and a verification link; then sign them in. */
    const signup = Effect.fn("Accounts.signup")(function*(request: SignupRequest, origin: Origin) {
      yield* limiter.consume(Rules.signupsPerAddress, origin.ipAddress ?? "unknown")
      const names = [request.displayName, request.workspaceName].filter((name) => name !== undefined)
      yield* weakness(request.password, request.email, names)
      const passwordHash = yield* hasher.hash(request.password)
      const displayName = request.displayName ?? request.email.split("@")[0]!
      const workspaceName = request.workspaceName ?? `${displayName}'s workspace`
      const created = yield* Effect.gen(function*() {
        const at = yield* now
        const userId = uuidv7() as UserId
        const inserted = yield* users.insert({ id: userId, email: request.email, displayName, passwordHash, now: at })
        if (Option.isNone(inserted)) {
          return yield* new EmailTaken({ email: request.email, message: "An account with this email already exists" })
        }
        const workspaceId = uuidv7() as WorkspaceId
        const slug = yield* workspaces.freeSlug(slugFrom(workspaceName))
        yield* workspaces.insert({ id: workspaceId, slug, name: workspaceName, createdAt: at, updatedAt: at })
        yield* workspaces.addMember({ workspaceId, userId, role: "owner", invitedBy: null, now: at })
        const token = yield* oneTimeToken(userId, "email-verification", EMAIL_VERIFICATION_TTL_SECONDS, at)
        yield* log.append({
          workspaceId,
          actor: { kind: "user", userId },
          actorDisplay: displayName,
          action: "auth.signup",
          resourceType: "user",
          resourceId: userId,
          summary: { before: null, after: { email: request.email, workspace: slug } },
          traceId: origin.traceId,
          ipAddress: origin.ipAddress,
          userAgent: origin.userAgent
        })
        return { userId, token }
      }).pipe(transactional)
      yield* sendInBackground(
        verificationEmail({ to: request.email, displayName, token: created.token, publicUrl })
      )
      return yield* sessions.start(created.userId, origin)
    })

    const invalidCredentials = new InvalidCredentials({ message: "The email or the password is wrong" })

    /**
     * The password step of a login: limits first, then the check (as slow for unknown emails), then MFA or a
     * session. A browser presenting a valid device cookie for this account is limited by that cookie's own
     * failures, not by the account's: a flood of wrong passwords from elsewhere does not lock it out.
     */
    const checkPassword = Effect.fn("Accounts.checkPassword")(
      function*(email: string, password: Redacted.Redacted<string>, origin: Origin, deviceCookie?: string) {
        const address = origin.ipAddress ?? "unknown"
        yield* limiter.consume(Rules.loginAttemptsPerAddress, address)
        const user = yield* users.findByEmail(email)
        const device = Option.isSome(user)
          ? yield* devices.trusted(deviceCookie, user.value.id)
          : Option.none<TrustedDevice>()
        const pairKey = `${email}|${address}`
        // OWASP's device-cookie scheme: a trusted device answers to its own lockout, every other client to
        // the account's (per address and overall).
        const failureRules: ReadonlyArray<readonly [RateRule, string]> = Option.match(device, {
          onNone: () => [[Rules.loginFailuresPerAccountAndAddress, pairKey], [Rules.loginFailuresPerAccount, email]],
          onSome: ({ nonce }) => [[Rules.loginFailuresPerDevice, nonce]]
        })
        for (const [rule, key] of failureRules) yield* limiter.refuseWhenOver(rule, key)
        const valid = yield* Option.match(user, {
          onNone: () => Effect.as(hasher.verifyDummy(password), false),
          onSome: (user) => hasher.verify(password, user.passwordHash)
        })
        if (Option.isNone(user) || !valid) {
          yield* Effect.forEach(failureRules, ([rule, key]) => limiter.consume(rule, key), { discard: true }).pipe(
            Effect.ignore
          )
          if (Option.isSome(user)) {
            yield* audit.record(user.value.id, origin, {
              action: "auth.login.failed",
              resourceType: "user",
              resourceId: user.value.id,
              summary: { before: null, after: { reason: "wrong-password", trustedDevice: Option.isSome(device) } }
            })
          }
          return yield* Effect.fail(invalidCredentials)
        }
        // A right password clears this client's own failures; the account's count stays, as an attack may go on.
        yield* Option.match(device, {
          onNone: () => limiter.reset(Rules.loginFailuresPerAccountAndAddress, pairKey),
          onSome: ({ nonce }) => limiter.reset(Rules.loginFailuresPerDevice, nonce)
        })
        if (user.value.disabledAt !== null) {
          yield* audit.record(user.value.id, origin, {
            action: "auth.login.refused",
            resourceType: "user",
            resourceId: user.value.id,
            summary: { before: null, after: { reason: "account-disabled" } }
          })
          return yield* new AccountDisabled({ message: "This account is disabled; ask the operator of this Parley" })
        }
        if (hasher.needsRehash(user.value.passwordHash)) {
          yield* users.update(user.value.id, { passwordHash: yield* hasher.hash(password) }, yield* now)
        }
        if (user.value.mfaEnabledAt !== null) {
          const token = yield* oneTimeToken(user.value.id, "mfa-challenge", MFA_CHALLENGE_TTL_SECONDS, yield* now)
          return { _tag: "MfaRequired", challengeToken: token, expiresIn: MFA_CHALLENGE_TTL_SECONDS } as const
        }
        yield* audit.record(user.value.id, origin, {
          action: "auth.login.succeeded",
          resourceType: "user",
          resourceId: user.value.id,
          summary: { before: null, after: { mfa: false } }
        })
        return { _tag: "SignedIn", userId: user.value.id } satisfies PasswordAccepted
      }
    )

    /** Spend a one-time token of a purpose; a wrong, spent or expired token is refused (its purpose named). */
    const spend = (token: string, purpose: OneTimePurpose) =>
      Effect.gen(function*() {
        const at = yield* now
        const row = yield* oneTime.lock(hashToken(token), purpose)
        const tokenPurpose = purpose
        if (Option.isNone(row) || row.value.usedAt !== null || row.value.userId === null) {
          return yield* new InvalidToken({
            purpose: tokenPurpose,
            message: "This link is not valid; ask for a new one"
          })
        }
        if (row.value.expiresAt <= at) {
          return yield* new TokenExpired({ purpose: tokenPurpose, message: "This link has expired; ask for a new one" })
        }
        yield* oneTime.markUsed(row.value.tokenHash, at)
        return { userId: row.value.userId, at }
      })

    /** Mark the address verified with a verification link's token. */
    const verifyEmail = Effect.fn("Accounts.verifyEmail")(function*(token: string, origin: Origin) {
      const { at, userId } = yield* spend(token, "email-verification")
      yield* users.update(userId, { emailVerifiedAt: at }, at)
      yield* directory.announce({ kind: "user", id: userId })
      yield* audit.record(userId, origin, {
        action: "auth.email.verified",
        resourceType: "user",
        resourceId: userId,
        summary: { before: { emailVerified: false }, after: { emailVerified: true } }
      })
    }, transactional)

    /** Mail a new verification link to an unverified account; silent otherwise. */
    const resendVerification = Effect.fn("Accounts.resendVerification")(function*(email: string, origin: Origin) {
      yield* limiter.consume(Rules.resendVerificationPerAddress, origin.ipAddress ?? "unknown")
      yield* limiter.consume(Rules.resendVerificationPerEmail, email)
      const user = yield* users.findByEmail(email)
      if (Option.isNone(user) || user.value.emailVerifiedAt !== null || user.value.disabledAt !== null) return
      const token = yield* Effect.gen(function*() {
        const at = yield* now
        yield* oneTime.spendAll(user.value.id, "email-verification", at)
        return yield* oneTimeToken(user.value.id, "email-verification", EMAIL_VERIFICATION_TTL_SECONDS, at)
      }).pipe(transactional)
      yield* sendInBackground(
        verificationEmail({ to: user.value.email, displayName: user.value.displayName, token, publicUrl })
      )
    })

    /** Mail a password-reset link when the account exists; the answer is the same either way. */
    const forgotPassword = Effect.fn("Accounts.forgotPassword")(function*(email: string, origin: Origin) {
      yield* limiter.consume(Rules.forgotPasswordPerAddress, origin.ipAddress ?? "unknown")
      yield* limiter.consume(Rules.forgotPasswordPerEmail, email)
      const user = yield* users.findByEmail(email)
      if (Option.isNone(user) || user.value.disabledAt !== null) return
      const token = yield* Effect.gen(function*() {
        const at = yield* now
        yield* oneTime.spendAll(user.value.id, "password-reset", at)
        return yield* oneTimeToken(user.value.id, "password-reset", PASSWORD_RESET_TTL_SECONDS, at)
      }).pipe(transactional)
      yield* sendInBackground(
        passwordResetEmail({ to: user.value.email, displayName: user.value.displayName, token, publicUrl })
      )
    })

    /**
     * Set a new password with a reset token: every session ends, the address
     * counts as verified (the mail arrived), MFA stays as it was, and nobody is
     * signed in.
     */
    const resetPassword = Effect.fn("Accounts.resetPassword")(
      function*(token: string, password: Redacted.Redacted<string>, origin: Origin) {
        const user = yield* Effect.gen(function*() {
          const { at, userId } = yield* spend(token, "password-reset")
          const row = Option.getOrThrow(yield* users.lockById(userId))
          yield* weakness(password, row.email, [row.displayName])
          yield* users.update(userId, {
            passwordHash: yield* hasher.hash(password),
            passwordChangedAt: at,
            emailVerifiedAt: row.emailVerifiedAt ?? at
          }, at)
          yield* oneTime.spendAll(userId, "mfa-challenge", at)
          yield* sessions.revokeAll(userId, origin, Option.none(), "password-reset")
          yield* audit.record(userId, origin, {
            action: "auth.password.reset",
            resourceType: "user",
            resourceId: userId,
            summary: { before: null, after: { sessionsEnded: true } }
          })
          return { ...row, at }
        }).pipe(transactional)
        yield* sendInBackground(securityNoticeEmail({
          to: user.email,
          displayName: user.displayName,
          event: "password-changed",
          at: DateTime.unsafeFromDate(user.at)
        }))
      }
    )

    /**
     * Change the password of a signed-in user: every factor (the current
     * password, and a code when MFA is on), a new password that passes the
     * policy, then outstanding reset links stop working and, by default, every
     * other session ends. A notice is mailed.
     */
    const changePassword = Effect.fn("Accounts.changePassword")(
      function*(
        userId: UserId,
        current: SessionId,
        request: {
          readonly proof: Proof
          readonly newPassword: Redacted.Redacted<string>
          readonly signOutOthers: boolean
        },
        origin: Origin
      ) {
        const before = Option.getOrThrow(yield* users.findById(userId))
        yield* weakness(request.newPassword, before.email, [before.displayName])
        const passwordHash = yield* hasher.hash(request.newPassword)
        const changed = yield* factors.prove(userId, request.proof, (user, at) =>
          Effect.gen(function*() {
            yield* users.update(userId, { passwordHash, passwordChangedAt: at }, at)
            yield* oneTime.spendAll(userId, "password-reset", at)
            const sessionsEnded = request.signOutOthers
              ? yield* sessions.revokeAll(userId, origin, Option.some(current), "password-changed")
              : 0
            yield* sessions.reauthenticated(current, at)
            yield* audit.record(userId, origin, {
              action: "auth.password.changed",
              resourceType: "user",
              resourceId: userId,
              summary: { before: null, after: { sessionsEnded } }
            })
            return { user, at, sessionsEnded }
          }))
        yield* sendInBackground(securityNoticeEmail({
          to: changed.user.email,
          displayName: changed.user.displayName,
          event: "password-changed",
          at: DateTime.unsafeFromDate(changed.at)
        }))
        return { sessionsEnded: changed.sessionsEnded }
      }
    )

    /** Prove every factor again, so the current session counts as recently authenticated. */
    const reauthenticate = Effect.fn("Accounts.reauthenticate")(
      function*(userId: UserId, current: SessionId, proof: Proof, origin: Origin) {
        const at = yield* factors.prove(userId, proof, (_, at) =>
          Effect.gen(function*() {
            yield* sessions.reauthenticated(current, at)
            yield* audit.record(userId, origin, {
              action: "auth.reauthenticated",
              resourceType: "session",
              resourceId: current,
              summary: { before: null, after: null }
            })
            return at
          })).pipe(
            Effect.tapErrorTag("InvalidCredentials", () =>
              audit.record(userId, origin, {
                action: "auth.reauthentication.failed",
                resourceType: "session",
                resourceId: current,
                summary: { before: null, after: { reason: "wrong-password" } }
              }))
          )
        return {
          authenticatedAt: DateTime.unsafeFromDate(at),
          recentUntil: DateTime.unsafeFromDate(new Date(at.getTime() + RECENT_AUTHENTICATION_SECONDS * 1000))
        }
      }
    )

    /** The user as the API shows them. */
    const profile = Effect.fn("Accounts.profile")(function*(userId: UserId) {
      return toUser(Option.getOrThrow(yield* users.findById(userId)) as UserRow)
    })

    /** `GET /account/me`: the signed-in user, their session and the workspaces they belong to. */
    const me = Effect.fn("Accounts.me")(function*(userId: UserId, sessionId: SessionId) {
      return { user: yield* profile(userId), sessionId, memberships: yield* workspaces.membershipsOf(userId) }
    })

    return {
      signup,
      checkPassword,
      verifyEmail,
      resendVerification,
      forgotPassword,
      resetPassword,
      changePassword,
      reauthenticate,
      profile,
      me
    } as const
  })
}) {}
