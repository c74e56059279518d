/**
 * The port through which Parley sends mail. `MailerLive` picks the adapter:
 * SMTP when `PARLEY_SMTP_URL` is set, otherwise the development mailer,
 * which logs each message (with its links) instead of sending it.
 */
import { Context, type Effect, Schema } from "effect"
import type { MailMessage } from "../domain/identity/Emails.js"

export type { MailMessage, MailTag } from "../domain/identity/Emails.js"

/**
 * A mail could not be handed to the mail server. The message never holds
 * credentials; callers decide whether it is fatal (forgot-password must not
 * reveal it).
 */
export class MailError extends Schema.TaggedError<MailError>()("MailError", {
  message: Schema.String
}) {}

/** Sends one mail; succeeds once the mail server has accepted it. */
export class Mailer extends Context.Tag("parley/providers/Mailer")<Mailer, {
  readonly send: (message: MailMessage) => Effect.Effect<void, MailError>
}>() {}
