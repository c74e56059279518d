import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { DEVICE_COOKIE } from "../../domain/identity/DeviceCookie.js"
import { ResendVerificationRequest, VerifyEmailRequest } from "../../domain/identity/EmailVerification.js"
import { InvalidCredentials, LoginRequest, LoginResult, SignedIn } from "../../domain/identity/Login.js"
import { InvalidToken, TokenExpired } from "../../domain/identity/OneTimeToken.js"
import { WeakPassword } from "../../domain/identity/Password.js"
import { ForgotPasswordRequest, ResetPasswordRequest } from "../../domain/identity/PasswordReset.js"
import {
  ReauthenticationRequired,
  REFRESH_COOKIE,
  REFRESH_COOKIE_PATH,
  RevokeSessionsParams,
  SessionsRevoked
} from "../../domain/identity/Session.js"
import { SignupRequest } from "../../domain/identity/Signup.js"
import { AccountDisabled, EmailTaken } from "../../domain/identity/User.js"
import { ACCESS_COOKIE, Authentication } from "../middleware/Authentication.js"
import { transformOperation } from "../OperationTransform.js"
import { requires } from "../RequiredAccess.js"

const setsCookies =
  `Sets the \`${ACCESS_COOKIE}\` cookie (the access token; httpOnly, Secure, SameSite=Lax, path /) and the ` +
  `\`${REFRESH_COOKIE}\` cookie (the refresh token, opaque, rotated on each refresh; httpOnly, Secure, ` +
  `SameSite=Strict, path ${REFRESH_COOKIE_PATH}). The refresh token never appears in a body.`

const setsDeviceCookie =
  `Also sets the \`${DEVICE_COOKIE}\` device cookie (signed, bound to the account; httpOnly, Secure, ` +
  "SameSite=Strict, path /, a year), which a later login of the same account presents to be limited by its " +
  "own failures rather than by the account's lockout."

const clearsCookies = `Clears the \`${ACCESS_COOKIE}\` and \`${REFRESH_COOKIE}\` cookies.`

/** Document the refresh cookie an operation reads (it is not a security scheme: the route is public). */
const readsRefreshCookie = transformOperation((operation) => ({
  ...operation,
  parameters: [
    ...operation.parameters,
    {
      name: REFRESH_COOKIE,
      in: "cookie",
      required: true,
      description: `The refresh token, set by signup, login, refresh and mfa/challenge (path ${REFRESH_COOKIE_PATH}).`,
      schema: { type: "string" }
    } as any
  ]
}))

/**
 * Sign-up, sign-in and the account's credentials (`/v1/auth`): the seed's
 * nine routes. Logout and revoke-sessions need a signed-in user; the rest are public.
 */
export class AuthApi extends HttpApiGroup.make("auth")
  .add(
    HttpApiEndpoint.post("logout", "/auth/logout")
      .addSuccess(HttpApiSchema.NoContent)
      .annotate(OpenApi.Summary, "Sign out this session")
      .annotate(
        OpenApi.Description,
        `Ends the current session: its access tokens stop working at once, on every node. ${clearsCookies}`
      )
      .pipe(requires("account"))
  )
  .add(
    HttpApiEndpoint.post("revokeSessions", "/auth/revoke-sessions")
      .setUrlParams(RevokeSessionsParams)
      .addSuccess(SessionsRevoked)
      .addError(ReauthenticationRequired)
      .annotate(OpenApi.Summary, "Sign out everywhere")
      .annotate(
        OpenApi.Description,
        "Ends every session of the user; their access tokens stop working at once, on every node. " +
          `${clearsCookies} With \`keepCurrent=true\` it ends every *other* session and keeps this one; that ` +
          "needs this session to have proved every factor in the last 10 minutes (its sign-in or " +
          "`POST /v1/auth/reauthenticate`), else `ReauthenticationRequired`, so a stolen session cannot sign its " +
          "owner out."
      )
      .pipe(requires("account"))
  )
  .middlewareEndpoints(Authentication)
  .add(
    HttpApiEndpoint.post("signup", "/auth/signup")
      .setPayload(SignupRequest)
      .addSuccess(SignedIn, { status: 201 })
      .addError(EmailTaken)
      .addError(WeakPassword)
      .annotate(OpenApi.Summary, "Create an account and sign in")
      .annotate(
        OpenApi.Description,
        "Creates the user and their personal workspace (they are its owner; its slug is derived from its name and made unique), mails an email-verification link and " +
          `signs the user in. Until the email is verified the user may sign in and read, but not invite, create ` +
          `tokens or secrets, publish or deploy. ${setsCookies}`
      )
  )
  .add(
    HttpApiEndpoint.post("login", "/auth/login")
      .setPayload(LoginRequest)
      .addSuccess(LoginResult)
      .addError(InvalidCredentials)
      .addError(AccountDisabled)
      .annotate(OpenApi.Summary, "Sign in with email and password")
      .annotate(
        OpenApi.Description,
        "Answers `SignedIn` (tokens and user) or, for an account with MFA, `MfaRequired` with a challenge token " +
          `to finish at \`POST /v1/auth/mfa/challenge\`; switch on \`_tag\` or \`mfaRequired\`. On \`SignedIn\`: ` +
          `${setsCookies} ${setsDeviceCookie} Rate limited per address, and per account for a browser without a ` +
          "device cookie of the account (one with it is limited per device cookie instead)."
      )
  )
  .add(
    HttpApiEndpoint.post("refresh", "/auth/refresh")
      .addSuccess(SignedIn)
      .addError(InvalidToken)
      .addError(TokenExpired)
      .annotate(OpenApi.Summary, "Get a new access token")
      .annotate(
        OpenApi.Description,
        `Reads the refresh token from the \`${REFRESH_COOKIE}\` cookie only (no body): non-browser clients keep ` +
          "the cookie in a cookie jar; automation uses API tokens instead. The refresh token is rotated: presenting " +
          "an old one again signs the whole session out. Browsers send `X-Requested-With` (CSRF defence). " +
          setsCookies
      )
      .pipe(readsRefreshCookie)
  )
  .add(
    HttpApiEndpoint.post("forgotPassword", "/auth/forgot-password")
      .setPayload(ForgotPasswordRequest)
      .addSuccess(HttpApiSchema.Accepted)
      .annotate(OpenApi.Summary, "Mail a password-reset link")
      .annotate(
        OpenApi.Description,
        "Always answers 202 with no body, in the same time, whether or not the account exists. The link works " +
          "once, for 30 minutes. Rate limited per address and per email."
      )
  )
  .add(
    HttpApiEndpoint.post("resetPassword", "/auth/reset-password")
      .setPayload(ResetPasswordRequest)
      .addSuccess(HttpApiSchema.NoContent)
      .addError(InvalidToken)
      .addError(TokenExpired)
      .addError(WeakPassword)
      .annotate(OpenApi.Summary, "Set a new password with a reset link's token")
      .annotate(
        OpenApi.Description,
        "Sets the password, signs out every session of the account and marks its email verified. It does not " +
          "sign in: the user logs in with the new password (and MFA, when on)."
      )
  )
  .add(
    HttpApiEndpoint.post("verifyEmail", "/auth/verify-email")
      .setPayload(VerifyEmailRequest)
      .addSuccess(HttpApiSchema.NoContent)
      .addError(InvalidToken)
      .addError(TokenExpired)
      .annotate(OpenApi.Summary, "Confirm an email address with a verification link's token")
      .annotate(
        OpenApi.Description,
        "Marks the address verified (the link works for 24 hours). Signed-in clients refresh to see it in `/auth/me`."
      )
  )
  .add(
    HttpApiEndpoint.post("resendVerification", "/auth/resend-verification")
      .setPayload(ResendVerificationRequest)
      .addSuccess(HttpApiSchema.Accepted)
      .annotate(OpenApi.Summary, "Mail a new email-verification link")
      .annotate(
        OpenApi.Description,
        "Always answers 202 with no body, whether the account exists or is already verified. Earlier links stop " +
          "working. Rate limited per address and per email."
      )
  )
  .prefix("/v1")
  .annotate(OpenApi.Title, "Auth")
  .annotate(
    OpenApi.Description,
    "Sign-up, sign-in, tokens and password recovery. Access tokens are JWTs (15 minutes) verifiable with " +
      "`/.well-known/jwks.json`; refresh tokens live only in an httpOnly cookie."
  )
{}
