/**
 * The SMTP adapter against a real SMTP server on loopback: the server gets
 * the mail (sender, recipient, subject, text and HTML parts) after a login
 * with the URL's credentials; a refused login, a closed port and a server
 * that never answers are each a `MailError` that names no credential.
 * `MailerLive` with `PARLEY_SMTP_URL` set sends through it.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Redacted, Tracer } from "effect"
import * as Net from "node:net"
import { SMTPServer } from "smtp-server"
import { verificationEmail } from "../../../src/domain/identity/Emails.js"
import { Mailer, MailError, type MailMessage } from "../../../src/providers/Mailer.js"
import { MailerLive } from "../../../src/providers/MailerLive.js"
import * as SmtpMailer from "../../../src/providers/SmtpMailer.js"

interface Received {
  readonly user: unknown
  readonly mailFrom: string | undefined
  readonly rcptTo: ReadonlyArray<string>
  readonly raw: string
}

/** An SMTP server on a random loopback port that accepts `user`/`pass` (in clear text) and keeps what it receives. */
const smtpServer = Effect.acquireRelease(
  Effect.async<{ readonly port: number; readonly received: Array<Received>; readonly server: SMTPServer }>(
    (resume) => {
      const received: Array<Received> = []
      const server = new SMTPServer({
        disabledCommands: ["STARTTLS"],
        allowInsecureAuth: true,
        disableReverseLookup: true,
        closeTimeout: 1_000,
        onAuth: (auth, _session, callback) =>
          auth.username === "user" && auth.password === "pass"
            ? callback(null, { user: auth.username })
            : callback(new Error("Invalid username or password")),
        onData: (stream, session, callback) => {
          const chunks: Array<Buffer> = []
          stream.on("data", (chunk: Buffer) => chunks.push(chunk))
          stream.on("end", () => {
            received.push({
              user: session.user,
              mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
              rcptTo: session.envelope.rcptTo.map((address) => address.address),
              raw: Buffer.concat(chunks).toString("utf8")
            })
            callback()
          })
        }
      })
      server.listen(0, "127.0.0.1", () => {
        resume(Effect.succeed({ port: (server.server.address() as Net.AddressInfo).port, received, server }))
      })
    }
  ),
  ({ server }) => Effect.async<void>((resume) => server.close(() => resume(Effect.void)))
)

/** A TCP server that accepts connections and never says a word. */
const silentServer = Effect.acquireRelease(
  Effect.async<{ readonly port: number; readonly server: Net.Server; readonly sockets: Set<Net.Socket> }>((resume) => {
    const sockets = new Set<Net.Socket>()
    const server = Net.createServer((socket) => {
      sockets.add(socket)
      socket.on("close", () => sockets.delete(socket))
    })
    server.listen(
      0,
      "127.0.0.1",
      () => resume(Effect.succeed({ port: (server.address() as Net.AddressInfo).port, server, sockets }))
    )
  }),
  ({ server, sockets }) =>
    Effect.async<void>((resume) => {
      for (const socket of sockets) socket.destroy()
      server.close(() => resume(Effect.void))
    })
)

/** A loopback port nothing listens on. */
const closedPort = Effect.async<number>((resume) => {
  const server = Net.createServer()
  server.listen(0, "127.0.0.1", () => {
    const port = (server.address() as Net.AddressInfo).port
    server.close(() => resume(Effect.succeed(port)))
  })
})

/** The headers and the decoded text/plain and text/html parts of a raw MIME message. */
const parseMime = (raw: string) => {
  const [head = "", ...rest] = raw.split("\r\n\r\n")
  const body = rest.join("\r\n\r\n")
  const headers = new Map<string, string>()
  for (const line of head.replace(/\r\n[ \t]+/g, " ").split("\r\n")) {
    const colon = line.indexOf(":")
    headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim())
  }
  const boundary = /boundary="?([^";]+)"?/.exec(headers.get("content-type") ?? "")?.[1]
  const parts: Record<string, string> = {}
  for (const part of boundary ? body.split(`--${boundary}`).slice(1, -1) : []) {
    const [partHead = "", ...partRest] = part.replace(/^\r\n/, "").split("\r\n\r\n")
    const content = partRest.join("\r\n\r\n").replace(/\r\n$/, "")
    const type = /content-type:\s*([^;\r\n]+)/i.exec(partHead)?.[1]?.trim() ?? ""
    const encoding = /content-transfer-encoding:\s*(\S+)/i.exec(partHead)?.[1]?.toLowerCase() ?? "7bit"
    parts[type] = encoding === "base64"
      ? Buffer.from(content, "base64").toString("utf8")
      : encoding === "quoted-printable"
      ? decodeQuotedPrintable(content)
      : content
  }
  return { headers, parts }
}

const decodeQuotedPrintable = (text: string): string => {
  const soft = text.replace(/=\r\n/g, "")
  const bytes: Array<number> = []
  for (let i = 0; i < soft.length; i++) {
    if (soft[i] === "=" && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16))
      i += 2
    } else bytes.push(soft.charCodeAt(i))
  }
  return Buffer.from(bytes).toString("utf8")
}

const message: MailMessage = verificationEmail({
  to: "ada@example.com",
  displayName: "Ada Lovelace",
  token: "tok_0123456789abcdefghijklmnop",
  publicUrl: "https://parley.example.com"
})

const send = (url: string, timeout?: Duration.DurationInput) =>
  Effect.gen(function*() {
    const mailer = yield* SmtpMailer.make({
      url: Redacted.make(url),
      from: "Parley <no-reply@parley.test>",
      ...(timeout === undefined ? {} : { timeout })
    })
    return yield* mailer.send(message)
  }).pipe(Effect.scoped)

describe("SmtpMailer", () => {
  it("sends within 15 seconds unless told otherwise", () => {
    expect(Duration.toMillis(SmtpMailer.SEND_TIMEOUT)).toBe(15_000)
  })

  it.scopedLive("the server receives the mail, after a login with the URL's credentials", () =>
    Effect.gen(function*() {
      const { port, received } = yield* smtpServer
      yield* send(`smtp://user:pass@127.0.0.1:${port}`)

      expect(received).toHaveLength(1)
      const mail = received[0]!
      expect(mail.user).toBe("user")
      expect(mail.mailFrom).toBe("no-reply@parley.test")
      expect(mail.rcptTo).toEqual(["ada@example.com"])
      const { headers, parts } = parseMime(mail.raw)
      expect(headers.get("from")).toBe("Parley <no-reply@parley.test>")
      expect(headers.get("to")).toBe("ada@example.com")
      expect(headers.get("subject")).toBe(message.subject)
      expect(headers.get("content-type")).toMatch(/^multipart\/alternative/)
      expect(parts["text/plain"]?.trimEnd()).toBe(message.text.trimEnd().replace(/\n/g, "\r\n"))
      expect(parts["text/html"]?.trimEnd()).toBe(message.html.trimEnd().replace(/\n/g, "\r\n"))
      expect(parts["text/plain"]).toContain(message.links[0])
    }))

  it.scopedLive("one layer sends several mails over its pool", () =>
    Effect.gen(function*() {
      const { port, received } = yield* smtpServer
      const mailer = yield* SmtpMailer.make({
        url: Redacted.make(`smtp://user:pass@127.0.0.1:${port}`),
        from: "Parley <no-reply@parley.test>"
      })
      yield* Effect.forEach(
        ["a@example.com", "b@example.com", "c@example.com"],
        (to) => mailer.send({ ...message, to }),
        { concurrency: "unbounded" }
      )
      expect(received.flatMap((mail) => mail.rcptTo).sort()).toEqual([
        "a@example.com",
        "b@example.com",
        "c@example.com"
      ])
    }))

  it.scopedLive("a refused login is a MailError that names neither the password nor the recipient", () =>
    Effect.gen(function*() {
      const { port, received } = yield* smtpServer
      const error = yield* send(`smtp://user:s3cret-word@127.0.0.1:${port}`).pipe(Effect.flip)
      expect(error).toBeInstanceOf(MailError)
      expect(error.message).toMatch(/EAUTH|login/i)
      expect(error.message).not.toContain("s3cret-word")
      expect(error.message).not.toContain(Buffer.from("\u0000user\u0000s3cret-word").toString("base64"))
      expect(error.message).not.toContain("ada@example.com")
      expect(received).toHaveLength(0)
    }))

  it.live("a closed port is a MailError at once", () =>
    Effect.gen(function*() {
      const port = yield* closedPort
      const started = Date.now()
      const error = yield* send(`smtp://user:pass@127.0.0.1:${port}`).pipe(Effect.flip)
      expect(error._tag).toBe("MailError")
      expect(error.message).toMatch(/ECONNREFUSED/)
      expect(error.message).not.toContain("pass@")
      expect(Date.now() - started).toBeLessThan(5_000)
    }))

  it.scopedLive("a server that never answers is a MailError after the time-out", () =>
    Effect.gen(function*() {
      const { port } = yield* silentServer
      const started = Date.now()
      const error = yield* send(`smtp://user:pass@127.0.0.1:${port}`, "500 millis").pipe(Effect.flip)
      const elapsed = Date.now() - started
      expect(error._tag).toBe("MailError")
      expect(elapsed).toBeGreaterThanOrEqual(450)
      expect(elapsed).toBeLessThan(5_000)
    }))

  it.scoped("a URL that is not SMTP is refused when the layer is built", () =>
    Effect.gen(function*() {
      const error = yield* SmtpMailer.make({
        url: Redacted.make("https://user:hunter2@mail.example.com"),
        from: "x@y.z"
      })
        .pipe(Effect.flip)
      expect(error._op).toBe("InvalidData")
      expect(String(error)).toContain("PARLEY_SMTP_URL")
      expect(String(error)).not.toContain("hunter2")
    }))

  it.scopedLive("each send is a Mailer.send span naming the tag, never the recipient", () =>
    Effect.gen(function*() {
      const { port } = yield* smtpServer
      const spans: Array<Tracer.Span> = []
      const base = yield* Effect.tracer
      const recording = Tracer.make({
        span: (...args) => {
          const span = base.span(...args)
          spans.push(span)
          return span
        },
        context: (f, fiber) => base.context(f, fiber)
      })
      yield* send(`smtp://user:pass@127.0.0.1:${port}`).pipe(Effect.withTracer(recording))
      const span = spans.find((span) => span.name === "Mailer.send")
      expect(span?.attributes.get("mail.tag")).toBe("email-verification")
      expect(JSON.stringify([...span!.attributes.values()])).not.toContain("ada@example.com")
    }))

  it.scopedLive("MailerLive sends over SMTP when PARLEY_SMTP_URL is set, from PARLEY_MAIL_FROM", () =>
    Effect.gen(function*() {
      const { port, received } = yield* smtpServer
      yield* Effect.flatMap(Mailer, (mailer) => mailer.send(message)).pipe(
        Effect.provide(MailerLive),
        Effect.withConfigProvider(ConfigProvider.fromJson({
          PARLEY_SMTP_URL: `smtp://user:pass@127.0.0.1:${port}`,
          PARLEY_MAIL_FROM: "Acme <mail@acme.test>"
        }))
      )
      expect(received.map((mail) => [mail.mailFrom, mail.rcptTo])).toEqual([["mail@acme.test", ["ada@example.com"]]])
    }))
})
