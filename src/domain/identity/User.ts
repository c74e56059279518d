import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { Email } from "./Email.js"
import { UserId } from "./Ids.js"

/** How a person is shown to their colleagues: trimmed, 1 to 120 characters. */
export const DisplayName = Schema.Trim.pipe(
  Schema.nonEmptyString(),
  Schema.maxLength(120),
  Schema.annotations({
    identifier: "DisplayName",
    // the document shows the encoded side (a string before trimming): this names the example it offers
    jsonSchema: { type: "string", description: "a string that will be trimmed", examples: ["Ada Lovelace"] }
  })
)

/**
 * A person with an account. The password is stored only as a scrypt hash, the
 * TOTP seed sealed with the master key, recovery codes as hashes.
 */
export class User extends Model.Class<User>("User")({
  id: Model.Generated(UserId),
  email: Email,
  displayName: DisplayName,
  passwordHash: Model.Sensitive(Schema.String),
  /** Whether the user followed the link mailed at signup; unverified users may read but not invite, publish or deploy. */
  emailVerified: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.Boolean),
  /** Whether login asks for a TOTP code after the password. */
  mfaEnabled: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.Boolean),
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate
}) {}

/** Another account already uses this email address. */
export class EmailTaken extends Schema.TaggedError<EmailTaken>()(
  "EmailTaken",
  { email: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}

/** The action needs a verified email address; `resend-verification` mails a new link. */
export class EmailNotVerified extends Schema.TaggedError<EmailNotVerified>()(
  "EmailNotVerified",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 403 })
) {}

/**
 * An operator disabled this account (`parley users disable`): it cannot sign
 * in. Answered only after the right password, so it tells nothing to a guesser.
 */
export class AccountDisabled extends Schema.TaggedError<AccountDisabled>()(
  "AccountDisabled",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 403 })
) {}
