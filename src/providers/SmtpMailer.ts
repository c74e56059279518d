/**
 * The SMTP adapter of `Mailer`, on nodemailer: one pooled transport per layer,
 * closed when the layer is released. The URL is nodemailer's connection URL
 * (`smtp://user:pass@host:587`, `smtps://…:465`, options as query parameters
 * such as `?requireTLS=true`); its credentials never reach an error or a span.
 */
import { ConfigError, Duration, Effect, Layer, Redacted, type Scope } from "effect"
import * as Nodemailer from "nodemailer"
import { parseConnectionUrl } from "nodemailer/lib/shared/index.js"
import { Mailer, MailError } from "./Mailer.js"

/** How long a send may wait for the mail server to accept a mail. */
export const SEND_TIMEOUT: Duration.Duration = Duration.seconds(15)

/** Where and as whom the SMTP adapter sends. */
export interface SmtpMailerOptions {
  /** `smtp://` or `smtps://`, usually with `user:password@`. */
  readonly url: Redacted.Redacted<string>
  /** The From header, e.g. `Parley <no-reply@example.com>`. */
  readonly from: string
  /** How long a send may take; 15 seconds unless given. */
  readonly timeout?: Duration.DurationInput
}

const invalidUrl = (why: string) =>
  ConfigError.InvalidData(["PARLEY_SMTP_URL"], `${why} (expected smtp://user:password@host:port or smtps://…)`)

/** A `Mailer` that sends through the SMTP server at `url`; its connection pool lives as long as the scope. */
export const make = (options: SmtpMailerOptions): Effect.Effect<Mailer["Type"], ConfigError.ConfigError, Scope.Scope> =>
  Effect.gen(function*() {
    const url = Redacted.value(options.url)
    const parsed = yield* Effect.try({
      try: () => {
        const { password, protocol, username } = new URL(url)
        return { protocol, user: decodeURIComponent(username), pass: decodeURIComponent(password) }
      },
      catch: () => invalidUrl("not a URL")
    })
    if (parsed.protocol !== "smtp:" && parsed.protocol !== "smtps:") {
      return yield* Effect.fail(invalidUrl(`the scheme ${parsed.protocol} is not SMTP`))
    }

    const timeout = Duration.decode(options.timeout ?? SEND_TIMEOUT)
    const millis = Duration.toMillis(timeout)
    const connection = parseConnectionUrl(url)
    const secrets = credentialsOf(url, parsed.user, parsed.pass)

    const transport = yield* Effect.acquireRelease(
      Effect.sync(() =>
        Nodemailer.createTransport({
          ...connection,
          pool: true,
          connectionTimeout: millis,
          greetingTimeout: millis,
          socketTimeout: Math.max(millis, 60_000),
          disableFileAccess: true,
          disableUrlAccess: true
        })
      ),
      (transport) => Effect.sync(() => transport.close())
    )

    const send: Mailer["Type"]["send"] = (message) =>
      Effect.tryPromise({
        try: () =>
          transport.sendMail({
            from: options.from,
            // An address object, so a crafted address is never parsed into several recipients.
            to: { name: "", address: message.to },
            subject: message.subject,
            text: message.text,
            html: message.html
          }),
        catch: (error) => new MailError({ message: scrub(describe(error), [...secrets, message.to]) })
      }).pipe(
        Effect.timeoutFail({
          duration: timeout,
          onTimeout: () =>
            new MailError({ message: `the mail server did not accept the mail within ${Duration.format(timeout)}` })
        }),
        Effect.asVoid,
        Effect.withSpan("Mailer.send", { attributes: { "mail.tag": message.tag, "mail.adapter": "smtp" } })
      )

    return { send }
  })

/** `Mailer` over SMTP, with one pooled transport closed when the layer is released. */
export const layer = (options: SmtpMailerOptions): Layer.Layer<Mailer, ConfigError.ConfigError> =>
  Layer.scoped(Mailer, make(options))

/** Every form in which the URL's credentials could appear in a message. */
const credentialsOf = (url: string, user: string, pass: string): ReadonlyArray<string> =>
  [
    url,
    pass,
    encodeURIComponent(pass),
    Buffer.from(`\u0000${user}\u0000${pass}`).toString("base64"),
    Buffer.from(pass).toString("base64")
  ].filter((secret) => secret.length > 0)

const scrub = (text: string, secrets: ReadonlyArray<string>): string =>
  secrets.reduce((text, secret) => text.split(secret).join("***"), text)

const describe = (error: unknown): string => {
  if (typeof error !== "object" || error === null) return String(error)
  const code = "code" in error && typeof error.code === "string" ? error.code : undefined
  const message = "message" in error && typeof error.message === "string" ? error.message : String(error)
  return code !== undefined && !message.includes(code) ? `${code}: ${message}` : message
}
