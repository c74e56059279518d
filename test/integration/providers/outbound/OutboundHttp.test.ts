/**
 * The guarded outbound client against a loopback server: with the loopback
 * range allowed it answers, follows redirects and stops at its limits; with
 * no allow-list, or at a redirect into a private range, it refuses before
 * connecting (the server counts connections).
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, type Scope } from "effect"
import { OutboundHttp, type OutboundRequest } from "../../../../src/providers/outbound/OutboundHttp.js"
import { echoServer } from "../../../support/EchoServer.js"

const outbound = (allowed: string) =>
  OutboundHttp.Default.pipe(
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["PARLEY_TOOL_ALLOWED_HOSTS", allowed]]))))
  )

const get = (url: string, more: Partial<OutboundRequest> = {}): OutboundRequest => ({
  method: "GET",
  url: new URL(url),
  headers: {},
  body: null,
  timeoutMs: 2_000,
  maxResponseBytes: 1_048_576,
  ...more
})

const send = (request: OutboundRequest) => Effect.flatMap(OutboundHttp, (http) => http.send(request))

/** Runs a test with its own client (allowing `allowed`) and server scope. */
const using = (allowed: string) => <A, E>(test: Effect.Effect<A, E, OutboundHttp | Scope.Scope>) =>
  test.pipe(Effect.scoped, Effect.provide(outbound(allowed)))

describe("outbound calls with loopback allowed", () => {
  const loopback = using("127.0.0.1/32, ::1/128")
  it.live("answers, following a redirect", () =>
    loopback(Effect.gen(function*() {
      const server = yield* echoServer
      const answer = yield* send(get(server.url(`/redirect?to=${encodeURIComponent("/echo?x=1")}`)))
      expect(answer.status).toBe(200)
      expect(answer.redirects).toBe(1)
      expect(JSON.parse(new TextDecoder().decode(answer.body)).url).toBe("/echo?x=1")
    })))

  it.live("a 303 after a POST becomes a GET without the body", () =>
    loopback(Effect.gen(function*() {
      const server = yield* echoServer
      const answer = yield* send({
        ...get(server.url(`/redirect?status=303&to=/echo`)),
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: new TextEncoder().encode("hello")
      })
      const echoed = JSON.parse(new TextDecoder().decode(answer.body))
      expect([echoed.method, echoed.body, echoed.headers["content-type"]]).toEqual(["GET", "", undefined])
    })))

  it.live("a redirect loop stops after 3 redirects", () =>
    loopback(Effect.gen(function*() {
      const server = yield* echoServer
      const error = yield* send(get(server.url("/loop"))).pipe(Effect.flip)
      expect(error._tag).toBe("OutboundTooManyRedirects")
      expect(server.requests.length).toBe(4)
    })))

  it.live("a redirect to a private or metadata address is refused without connecting", () =>
    loopback(Effect.gen(function*() {
      const server = yield* echoServer
      for (const target of ["http://10.0.0.1/", "http://169.254.169.254/latest/meta-data", "http://[fd00::1]/"]) {
        const error = yield* send(get(server.url(`/redirect?to=${encodeURIComponent(target)}`))).pipe(Effect.flip)
        expect(error._tag, target).toBe("OutboundRefused")
      }
      const error = yield* send(get(server.url(`/redirect?to=${encodeURIComponent("file:///etc/passwd")}`))).pipe(
        Effect.flip
      )
      expect(error).toMatchObject({ _tag: "OutboundRefused", reason: "scheme-not-allowed" })
    })))

  it.live("credentials are dropped when a redirect leaves the host", () =>
    loopback(Effect.gen(function*() {
      const server = yield* echoServer
      const other = `http://localhost:${server.port}/echo` // another host name, the same server
      const answer = yield* send({
        ...get(server.url(`/redirect?to=${encodeURIComponent(other)}`)),
        headers: { authorization: "Bearer s3cret", "x-other": "kept" },
        credentialHeaders: ["authorization"]
      })
      expect(answer.status).toBe(200)
      expect(server.requests.map((request) => [request.headers.authorization, request.headers["x-other"]])).toEqual([
        ["Bearer s3cret", "kept"],
        [undefined, "kept"]
      ])
    })))

  it.live("a slow server is a time-out", () =>
    loopback(Effect.gen(function*() {
      const server = yield* echoServer
      const error = yield* send(get(server.url("/slow?ms=3000"), { timeoutMs: 200 })).pipe(Effect.flip)
      expect(error).toMatchObject({ _tag: "OutboundTimedOut", timeoutMs: 200 })
    })))

  it.live("a body over the limit stops the read, with or without a length header", () =>
    loopback(Effect.gen(function*() {
      const server = yield* echoServer
      const error = yield* send(get(server.url("/big?bytes=5000000"), { maxResponseBytes: 100_000 })).pipe(
        Effect.flip
      )
      expect(error).toMatchObject({ _tag: "OutboundResponseTooLarge", limitBytes: 100_000, status: 200 })
      if (error._tag === "OutboundResponseTooLarge") expect(error.head.length).toBe(100_000)
      const ok = yield* send(get(server.url("/big?bytes=100000"), { maxResponseBytes: 100_000 }))
      expect(ok.body.length).toBe(100_000)
    })))

  it.live("a closed port is a connection failure, an unknown host a DNS failure", () =>
    loopback(Effect.gen(function*() {
      const closed = yield* send(get("http://127.0.0.1:1/")).pipe(Effect.flip)
      expect(closed._tag).toBe("OutboundConnectionFailed")
      const unknown = yield* send(get("http://no-such-host.invalid/")).pipe(Effect.flip)
      expect(unknown._tag).toBe("OutboundHostNotFound")
    })))
})

describe("outbound calls with no allow-list", () => {
  it.live("loopback is refused before any connection, by address and by name", () =>
    using("")(Effect.gen(function*() {
      const server = yield* echoServer
      for (
        const url of [
          server.url("/echo"),
          `http://localhost:${server.port}/echo`,
          `http://[::ffff:127.0.0.1]:${server.port}/`
        ]
      ) {
        const error = yield* send(get(url)).pipe(Effect.flip)
        expect(error, url).toMatchObject({ _tag: "OutboundRefused", reason: "loopback" })
      }
      expect(server.connections()).toBe(0)
    })))
})
