/**
 * The development mailer sends nothing: it logs one Info line per mail with
 * its links, and keeps the last 500 in an outbox that tests read.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Logger, LogLevel, Option } from "effect"
import { passwordResetEmail, verificationEmail } from "../../../src/domain/identity/Emails.js"
import * as DevMailer from "../../../src/providers/DevMailer.js"
import { Mailer } from "../../../src/providers/Mailer.js"
import { MailerLive } from "../../../src/providers/MailerLive.js"
import { capturingLogger as capturing, type LogEntry as Entry } from "../../support/TestServer.js"

const publicUrl = "http://localhost:8080"
const verification = verificationEmail({
  to: "ada@example.com",
  displayName: "Ada",
  token: "verify_0123456789abcdefghij",
  publicUrl
})
const reset = passwordResetEmail({
  to: "ada@example.com",
  displayName: "Ada",
  token: "reset_0123456789abcdefghijk",
  publicUrl
})

describe("DevMailer", () => {
  it.effect("logs one line per mail with recipient, subject, tag and links", () => {
    const entries: Array<Entry> = []
    return Effect.gen(function*() {
      const mailer = yield* Mailer
      yield* mailer.send(verification)
      const logged = entries.filter((entry) => entry.message === "mail (not sent)")
      expect(logged).toHaveLength(1)
      expect(logged[0]!.level).toBe("INFO")
      expect(logged[0]!.annotations).toEqual({
        to: "ada@example.com",
        subject: verification.subject,
        tag: "email-verification",
        links: verification.links
      })
    }).pipe(Effect.provide(DevMailer.layer), Effect.provide(capturing(entries)))
  })

  it.effect("the outbox holds what was sent; latest finds the newest by recipient and tag", () =>
    Effect.gen(function*() {
      const mailer = yield* Mailer
      const outbox = yield* DevMailer.DevOutbox
      yield* mailer.send(verification)
      yield* mailer.send(reset)
      const again = verificationEmail({
        to: "ada@example.com",
        displayName: "Ada",
        token: "newer_0123456789abcdefghij",
        publicUrl
      })
      yield* mailer.send(again)

      expect(yield* outbox.messages).toEqual([verification, reset, again])
      expect(yield* outbox.latest("Ada@Example.com", "email-verification")).toEqual(Option.some(again))
      expect(yield* outbox.latest("ada@example.com", "password-reset")).toEqual(Option.some(reset))
      expect(yield* outbox.latest("ada@example.com", "invitation")).toEqual(Option.none())
      expect(yield* outbox.latest("bob@example.com", "password-reset")).toEqual(Option.none())

      yield* outbox.clear
      expect(yield* outbox.messages).toEqual([])
    }).pipe(Effect.provide(DevMailer.layer)))

  it.effect("the outbox keeps the last 500 mails", () =>
    Effect.gen(function*() {
      const mailer = yield* Mailer
      const outbox = yield* DevMailer.DevOutbox
      yield* Effect.forEach(
        Array.from({ length: DevMailer.OUTBOX_CAPACITY + 1 }, (_, i) => ({ ...verification, subject: `#${i}` })),
        mailer.send
      )
      const messages = yield* outbox.messages
      expect(messages).toHaveLength(500)
      expect(messages[0]!.subject).toBe("#1")
      expect(messages[499]!.subject).toBe("#500")
    }).pipe(Effect.provide(DevMailer.layer), Effect.provide(Logger.minimumLogLevel(LogLevel.None))))

  it.effect("MailerLive without PARLEY_SMTP_URL is the development mailer", () => {
    const entries: Array<Entry> = []
    return Effect.gen(function*() {
      const mailer = yield* Mailer
      yield* mailer.send(reset)
      const logged = entries.filter((entry) => entry.message === "mail (not sent)")
      expect(logged.map((entry) => entry.annotations["links"])).toEqual([reset.links])
    }).pipe(
      Effect.provide(MailerLive),
      Effect.withConfigProvider(ConfigProvider.fromJson({})),
      Effect.provide(capturing(entries))
    )
  })
})
