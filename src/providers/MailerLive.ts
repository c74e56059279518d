import { type ConfigError, Effect, Layer, Option } from "effect"
import { MailFrom, SmtpUrl } from "../config/Settings.js"
import * as DevMailer from "./DevMailer.js"
import { Mailer } from "./Mailer.js"
import * as SmtpMailer from "./SmtpMailer.js"

/**
 * `Mailer` from configuration: SMTP when `PARLEY_SMTP_URL` is set, otherwise
 * the development mailer, which logs each mail instead of sending it
 * (production refuses to start without SMTP, so that is development only).
 */
export const MailerLive: Layer.Layer<Mailer, ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.gen(function*() {
    const url = yield* SmtpUrl
    const from = yield* MailFrom
    return Option.match(url, {
      onNone: () =>
        Layer.effect(Mailer, Effect.map(DevMailer.make, ({ mailer }) => mailer)).pipe(
          Layer.tap(() => Effect.logInfo("PARLEY_SMTP_URL is not set: mail is logged, not sent"))
        ),
      onSome: (url) => SmtpMailer.layer({ url, from })
    })
  })
)
