import { Schema } from "effect"
import { Name } from "../Name.js"
import { Email } from "./Email.js"
import { Password } from "./Password.js"
import { DisplayName } from "./User.js"

/**
 * A new account. Signup also creates the user's personal workspace (they
 * own it), mails the verification link and signs the user in.
 */
export const SignupRequest = Schema.Struct({
  email: Email,
  password: Password,
  /** Defaults to the part of the email before the `@`. */
  displayName: Schema.optional(DisplayName),
  /** The personal workspace's name; defaults to "<displayName>'s workspace". */
  workspaceName: Schema.optional(Name)
}).annotations({ identifier: "SignupRequest", parseOptions: { onExcessProperty: "error" } })
export type SignupRequest = typeof SignupRequest.Type
