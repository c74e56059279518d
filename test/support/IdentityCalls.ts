/**
 * Identity calls through the typed client, for behaviour tests: payloads
 * and queries built with the domain schemas, a client for a bare token, a
 * sign-in of an existing account, and MFA switched on for one.
 */
import { Effect, Redacted, Schema } from "effect"
import { ApiTokenCreate } from "../../src/domain/identity/ApiToken.js"
import { AuditQuery } from "../../src/domain/identity/AuditRecord.js"
import { LoginRequest } from "../../src/domain/identity/Login.js"
import {
  MfaChallengeRequest,
  MfaDisableRequest,
  MfaEnrollRequest,
  MfaVerifyRequest
} from "../../src/domain/identity/Mfa.js"
import { ResetPasswordRequest } from "../../src/domain/identity/PasswordReset.js"
import { PASSWORD, type TestAccount } from "./Accounts.js"
import { clientOf } from "./Members.js"
import { codeAt, settledNow } from "./TotpCodes.js"
import { typedCaller } from "./TypedCaller.js"

const reveal = (value: string | Redacted.Redacted<string>) => Redacted.isRedacted(value) ? Redacted.value(value) : value

/** The payload of `auth.login`. */
export const loginPayload = (email: string, password: string) =>
  Schema.decodeUnknownSync(LoginRequest)({ email, password })

/** The payload of `auth.resetPassword`. */
export const resetPayload = (token: string, password: string) =>
  Schema.decodeUnknownSync(ResetPasswordRequest)({ token, password })

/** The payload of `apiTokens.create`. */
export const tokenPayload = (name: string, role: string) => Schema.decodeUnknownSync(ApiTokenCreate)({ name, role })

/** The payload of `mfa.enroll`. */
export const enrollPayload = (password: string) => Schema.decodeUnknownSync(MfaEnrollRequest)({ password })

/** The payload of `mfa.verify`. */
export const verifyPayload = (code: string) => Schema.decodeUnknownSync(MfaVerifyRequest)({ code })

/** The payload of `mfa.challenge`: a login's challenge token (as the login answered it) and a code. */
export const challengePayload = (challengeToken: string | Redacted.Redacted<string>, code: string) =>
  Schema.decodeUnknownSync(MfaChallengeRequest)({ challengeToken: reveal(challengeToken), code })

/** The payload of `mfa.disable`. */
export const disablePayload = (password: string, code: string) =>
  Schema.decodeUnknownSync(MfaDisableRequest)({ password, code })

/** The query of `audit.list`, written as on the wire (`{ action: "auth.*", limit: "1" }`). */
export const auditQuery = (query: typeof AuditQuery.Encoded = {}) => Schema.decodeUnknownSync(AuditQuery)(query)

/** The typed client of a bare token (a user's access token or an API token), from a client address. */
export const clientWith = (token: string | Redacted.Redacted<string>, address: string) =>
  typedCaller({ address, token })

/** `auth.login` of an account from its address: `SignedIn` or `MfaRequired`. */
export const logInTyped = (account: { readonly email: string; readonly address: string }, password = PASSWORD) =>
  Effect.flatMap(
    typedCaller({ address: account.address }),
    (anonymous) => anonymous.auth.login({ payload: loginPayload(account.email, password) })
  )

/** Sign in again as an account without MFA (a new session): its `SignedIn` answer and a client holding its token. */
export const signInTyped = (account: { readonly email: string; readonly address: string }, password = PASSWORD) =>
  Effect.gen(function*() {
    const signedIn = yield* logInTyped(account, password)
    if (signedIn._tag !== "SignedIn") return yield* Effect.dieMessage(`expected SignedIn, got ${signedIn._tag}`)
    return { signedIn, client: yield* clientWith(signedIn.accessToken, account.address) }
  })

/**
 * Turn MFA on for an account: enrol with its password, then verify the code
 * of the current step. Answers the seed, the time of that step and the
 * recovery codes (revealed).
 */
export const enableMfa = (account: TestAccount) =>
  Effect.gen(function*() {
    const client = yield* clientOf(account)
    const enrolment = yield* client.mfa.enroll({ payload: enrollPayload(PASSWORD) })
    const t0 = yield* settledNow
    const enabled = yield* client.mfa.verify({ payload: verifyPayload(yield* codeAt(enrolment.secret, t0)) })
    return { secret: enrolment.secret, t0, recoveryCodes: enabled.recoveryCodes.map(Redacted.value) }
  })
