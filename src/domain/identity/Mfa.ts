import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { OpaqueToken } from "./OneTimeToken.js"
import { PasswordAttempt } from "./Password.js"

/** How many single-use recovery codes are issued when MFA is turned on. */
export const RECOVERY_CODE_COUNT = 10

const codePattern = /^(\d{6}|[A-Za-z0-9]{5}-?[A-Za-z0-9]{5})$/

/**
 * A second factor: the 6-digit TOTP code of the authenticator app, or one of
 * the recovery codes (`xxxxx-xxxxx`, case and dash optional). Each code is
 * accepted once.
 */
export const MfaCode = Schema.Redacted(
  Schema.String.pipe(
    Schema.pattern(codePattern, { message: () => "expected a 6-digit code or a recovery code (xxxxx-xxxxx)" })
  )
).annotations({
  identifier: "MfaCode",
  description: "A 6-digit TOTP code or a recovery code",
  jsonSchema: {
    type: "string",
    pattern: codePattern.source,
    description: "A 6-digit TOTP code or a recovery code",
    examples: ["123456"]
  }
})

/** A 6-digit TOTP code from the authenticator app (recovery codes are not accepted here). */
export const TotpCode = Schema.Redacted(
  Schema.String.pipe(Schema.pattern(/^\d{6}$/, { message: () => "expected a 6-digit code" }))
).annotations({
  identifier: "TotpCode",
  description: "A 6-digit TOTP code",
  jsonSchema: { type: "string", pattern: "^\\d{6}$", description: "A 6-digit TOTP code", examples: ["123456"] }
})

/** Start enrolling: the current password again, so a stolen session cannot lock its owner out. */
export const MfaEnrollRequest = Schema.Struct({
  password: PasswordAttempt
}).annotations({ identifier: "MfaEnrollRequest", parseOptions: { onExcessProperty: "error" } })

/**
 * A pending TOTP enrolment: the seed to put in an authenticator app (as text
 * or as the `otpauth://` URI of a QR code). Enrolling again replaces it; MFA
 * is on only after `verify`.
 */
export const MfaEnrollment = Schema.Struct({
  /** The TOTP seed, base32 (RFC 4648) without padding. */
  secret: Schema.Redacted(Schema.String),
  /** `otpauth://totp/Parley:<email>?secret=…&issuer=Parley&algorithm=SHA1&digits=6&period=30`. */
  otpauthUri: Schema.Redacted(Schema.String),
  issuer: Schema.String,
  accountName: Schema.String,
  algorithm: Schema.Literal("SHA1"),
  digits: Schema.Literal(6),
  period: Schema.Literal(30)
}).annotations({ identifier: "MfaEnrollment" })

/** Confirm the pending enrolment with a code the app shows; this turns MFA on. */
export const MfaVerifyRequest = Schema.Struct({
  code: TotpCode
}).annotations({ identifier: "MfaVerifyRequest", parseOptions: { onExcessProperty: "error" } })

/** MFA is on. The recovery codes are shown this once; each works once instead of a TOTP code. */
export const MfaEnabled = Schema.Struct({
  recoveryCodes: Schema.Array(Schema.Redacted(Schema.String)).pipe(Schema.itemsCount(RECOVERY_CODE_COUNT)),
  enabledAt: Schema.DateTimeUtc
}).annotations({ identifier: "MfaEnabled" })

/** Turn MFA off; needs the password and a current TOTP code or a recovery code. */
export const MfaDisableRequest = Schema.Struct({
  password: PasswordAttempt,
  code: MfaCode,
  // Optional rather than defaulted here, so the typed client may leave it out too; the default is applied by the handler.
  signOutOtherSessions: Schema.optional(
    Schema.Boolean.annotations({ description: "Also end every other session of the account (default false)" })
  )
}).annotations({ identifier: "MfaDisableRequest", parseOptions: { onExcessProperty: "error" } })

/** Finish a login that answered `MfaRequired`. */
export const MfaChallengeRequest = Schema.Struct({
  challengeToken: OpaqueToken,
  code: MfaCode
}).annotations({ identifier: "MfaChallengeRequest", parseOptions: { onExcessProperty: "error" } })

/** The code is wrong, already used, or outside the accepted time window. */
export class InvalidMfaCode extends Schema.TaggedError<InvalidMfaCode>()(
  "InvalidMfaCode",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 401 })
) {}

/** MFA is already on for this account; disable it before enrolling a new app. */
export class MfaAlreadyEnabled extends Schema.TaggedError<MfaAlreadyEnabled>()(
  "MfaAlreadyEnabled",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}

/** MFA is not on for this account, so there is nothing to disable. */
export class MfaNotEnabled extends Schema.TaggedError<MfaNotEnabled>()(
  "MfaNotEnabled",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}

/** There is no pending enrolment to verify (or it expired); call `enroll` first. */
export class MfaNotEnrolled extends Schema.TaggedError<MfaNotEnrolled>()(
  "MfaNotEnrolled",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}

/**
 * This Parley requires two-factor authentication (`PARLEY_REQUIRE_MFA`): until
 * MFA is on, a signed-in user may use only their own account's routes. Enrol at
 * `POST /v1/auth/mfa/enroll`, then confirm at `POST /v1/auth/mfa/verify`.
 */
export class MfaEnrollmentRequired extends Schema.TaggedError<MfaEnrollmentRequired>()(
  "MfaEnrollmentRequired",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 403 })
) {}
