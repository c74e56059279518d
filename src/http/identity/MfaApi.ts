import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { DEVICE_COOKIE } from "../../domain/identity/DeviceCookie.js"
import { InvalidCredentials, SignedIn } from "../../domain/identity/Login.js"
import {
  InvalidMfaCode,
  MfaAlreadyEnabled,
  MfaChallengeRequest,
  MfaDisableRequest,
  MfaEnabled,
  MfaEnrollment,
  MfaEnrollRequest,
  MfaNotEnabled,
  MfaNotEnrolled,
  MfaVerifyRequest
} from "../../domain/identity/Mfa.js"
import { InvalidToken, TokenExpired } from "../../domain/identity/OneTimeToken.js"
import { REFRESH_COOKIE } from "../../domain/identity/Session.js"
import { ACCESS_COOKIE, Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

/** TOTP multi-factor authentication (`/v1/auth/mfa`): enrol, turn on and off, and finish a login. */
export class MfaApi extends HttpApiGroup.make("mfa")
  .add(
    HttpApiEndpoint.post("enroll", "/auth/mfa/enroll")
      .setPayload(MfaEnrollRequest)
      .addSuccess(MfaEnrollment)
      .addError(InvalidCredentials)
      .addError(MfaAlreadyEnabled)
      .annotate(OpenApi.Summary, "Start TOTP enrolment")
      .annotate(
        OpenApi.Description,
        "Needs the current password. Returns a new TOTP seed and its `otpauth://` URI (for a QR code); it is " +
          "pending, valid for 10 minutes, until `verify` confirms a code. Enrolling again replaces it."
      )
      .pipe(requires("account"))
  )
  .add(
    HttpApiEndpoint.post("verify", "/auth/mfa/verify")
      .setPayload(MfaVerifyRequest)
      .addSuccess(MfaEnabled)
      .addError(InvalidMfaCode)
      .addError(MfaAlreadyEnabled)
      .addError(MfaNotEnrolled)
      .annotate(OpenApi.Summary, "Turn MFA on with a code from the app")
      .annotate(
        OpenApi.Description,
        "Confirms the pending enrolment and turns MFA on. Returns 10 single-use recovery codes, shown only here. " +
          "Other sessions of the user are signed out."
      )
      .pipe(requires("account"))
  )
  .add(
    HttpApiEndpoint.post("disable", "/auth/mfa/disable")
      .setPayload(MfaDisableRequest)
      .addSuccess(HttpApiSchema.NoContent)
      .addError(InvalidCredentials)
      .addError(InvalidMfaCode)
      .addError(MfaNotEnabled)
      .annotate(OpenApi.Summary, "Turn MFA off")
      .annotate(
        OpenApi.Description,
        "Needs the password and a current TOTP code or an unused recovery code (every factor, so a stolen " +
          "session alone cannot weaken the account). Removes the seed and the recovery codes; with " +
          "`signOutOtherSessions` it also ends every other session. Rate limited per account."
      )
      .pipe(requires("account"))
  )
  .middlewareEndpoints(Authentication)
  .add(
    HttpApiEndpoint.post("challenge", "/auth/mfa/challenge")
      .setPayload(MfaChallengeRequest)
      .addSuccess(SignedIn)
      .addError(InvalidToken)
      .addError(TokenExpired)
      .addError(InvalidMfaCode)
      .annotate(OpenApi.Summary, "Finish a login with a TOTP or recovery code")
      .annotate(
        OpenApi.Description,
        "Takes the challenge token of a login that answered `MfaRequired` (valid 5 minutes, single use) and a " +
          "code. A wrong code keeps the challenge open; five wrong codes end it. Sets the " +
          `\`${ACCESS_COOKIE}\`, \`${REFRESH_COOKIE}\` and \`${DEVICE_COOKIE}\` cookies as login does. Rate limited per account and ` +
          "per address."
      )
  )
  .prefix("/v1")
  .annotate(OpenApi.Title, "MFA")
  .annotate(
    OpenApi.Description,
    "Time-based one-time passwords (RFC 6238: SHA-1, 6 digits, 30 seconds) with single-use recovery codes."
  )
{}
