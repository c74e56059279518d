/**
 * What every request meets, whatever its route: the error shape, trace ids,
 * body limits, unknown routes and methods, and the 501 of unbuilt areas.
 */
import { HttpClientRequest, HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Stream } from "effect"
import * as Http from "node:http"
import { exchange, postRaw } from "../../support/Http.js"
import { testServer } from "../../support/TestServer.js"

const expectTraced = (res: { headers: Readonly<Record<string, string>> }) =>
  expect(res.headers["x-trace-id"]).toMatch(/^[0-9a-f]{32}$/)

const validSignup = { email: "ada@example.com", password: "correct horse battery staple" }

layer(testServer({ PARLEY_MAX_BODY_BYTES: "65536" }), { excludeTestServices: true })("HTTP behaviour", (it) => {
  it.effect("an unknown route is a JSON 404 naming method and path", () =>
    Effect.gen(function*() {
      const res = yield* exchange(HttpClientRequest.get("/v1/nowhere?x=1"))
      expect(res.status).toBe(404)
      expect(res.json).toEqual({
        _tag: "RouteNotFound",
        method: "GET",
        path: "/v1/nowhere",
        message: "No route for GET /v1/nowhere"
      })
      expectTraced(res)
    }))

  it.effect("a known path with the wrong method is a 405 listing the allowed methods", () =>
    Effect.gen(function*() {
      const res = yield* exchange(HttpClientRequest.del("/health/live"))
      expect(res.status).toBe(405)
      expect(res.headers["allow"]).toBe("GET")
      expect(res.json).toMatchObject({ _tag: "MethodNotAllowed", allowed: ["GET"] })
      const agents = yield* exchange(HttpClientRequest.put("/v1/agents"))
      expect(agents.json.allowed).toEqual(["GET", "POST"])
      expectTraced(agents)
    }))

  it.effect("malformed JSON is a 400 on public and authenticated routes alike", () =>
    Effect.gen(function*() {
      for (const url of ["/v1/auth/signup", "/v1/agents", "/v1/public/runtime/sessions"]) {
        const res = yield* exchange(postRaw(url, `{"email": "ada@`))
        expect(res.status, url).toBe(400)
        expect(res.json._tag, url).toBe("MalformedBody")
        expect(res.json.message, url).toMatch(/^Malformed JSON body: /)
        expectTraced(res)
      }
    }))

  it.effect("a body of the wrong types is a 400 that says which field", () =>
    Effect.gen(function*() {
      const res = yield* exchange(postRaw("/v1/auth/signup", JSON.stringify({ email: 42, password: "x" })))
      expect(res.status).toBe(400)
      expect(res.json._tag).toBe("HttpApiDecodeError")
      expect(res.json.issues.map((issue: { path: ReadonlyArray<string> }) => issue.path[0])).toContain("email")
      expectTraced(res)
    }))

  it.effect("an unknown field in a request body is a 400, so a typo is never silently ignored", () =>
    Effect.gen(function*() {
      const res = yield* exchange(postRaw("/v1/auth/signup", JSON.stringify({ ...validSignup, pasword: "typo" })))
      expect(res.status).toBe(400)
      expect(res.json._tag).toBe("HttpApiDecodeError")
      expect(res.text).toContain("pasword")
    }))

  it.effect("a body over the limit is a 413, whether its length is declared or it is chunked", () =>
    Effect.gen(function*() {
      const big = JSON.stringify({ note: "x".repeat(70_000) })
      const declared = yield* exchange(postRaw("/v1/leads", big))
      expect(declared.status).toBe(413)
      expect(declared.json).toMatchObject({ _tag: "PayloadTooLarge", limitBytes: 65536 })
      expectTraced(declared)
      const bytes = new TextEncoder().encode(big)
      const chunks = Array.from(
        { length: Math.ceil(bytes.length / 8192) },
        (_, i) => bytes.slice(i * 8192, (i + 1) * 8192)
      )
      // A stream has no declared length: the server must count as it reads.
      const chunked = yield* exchange(
        HttpClientRequest.post("/v1/leads").pipe(
          HttpClientRequest.bodyStream(Stream.fromIterable(chunks), { contentType: "application/json" })
        )
      )
      expect(chunked.status).toBe(413)
      expect(chunked.json._tag).toBe("PayloadTooLarge")
    }))

  it.effect("imports accept bodies past the general limit", () =>
    Effect.gen(function*() {
      const res = yield* exchange(postRaw("/v1/imports/drawio", JSON.stringify({ xml: "x".repeat(100_000) })))
      expect(res.status).not.toBe(413)
    }))

  it.effect("an incoming W3C traceparent is continued: the response names its trace", () =>
    Effect.gen(function*() {
      const traceId = "4bf92f3577b34da6a3ce929d0e0e4736"
      const res = yield* exchange(
        HttpClientRequest.get("/health/live").pipe(
          HttpClientRequest.setHeader("traceparent", `00-${traceId}-00f067aa0ba902b7-01`)
        ),
        { propagateTrace: false }
      )
      expect(res.status).toBe(200)
      expect(res.headers["x-trace-id"]).toBe(traceId)
    }))

  it.effect("a route whose area is not built answers 501 naming the route, to a signed-in caller", () =>
    Effect.gen(function*() {
      const signup = yield* exchange(postRaw("/v1/auth/signup", JSON.stringify(validSignup)))
      expect(signup.status).toBe(201)
      const res = yield* exchange(
        HttpClientRequest.get("/v1/channels").pipe(HttpClientRequest.bearerToken(signup.json.accessToken))
      )
      expect(res.status).toBe(501)
      expect(res.json).toEqual({
        _tag: "NotImplemented",
        route: "GET /v1/channels",
        message: "GET /v1/channels is not implemented yet"
      })
      expectTraced(res)
    }))

  it.effect("the voice WebSocket route tells a plain GET to upgrade (426), and answers an upgrade with its 501", () =>
    Effect.gen(function*() {
      const path = "/v1/public/channels/voice/0190c7a0-0000-7000-8000-000000000000/ws"
      const plain = yield* exchange(HttpClientRequest.get(path))
      expect(plain.status).toBe(426)
      expect(plain.headers["upgrade"]).toBe("websocket")
      expect(plain.json).toMatchObject({ _tag: "UpgradeRequired", upgrade: "websocket" })
      const address = (yield* HttpServer.HttpServer).address as HttpServer.TcpAddress
      const upgraded = yield* Effect.async<{ status: number; body: string }>((resume) => {
        const request = Http.request({
          host: "127.0.0.1",
          port: address.port,
          path,
          headers: {
            connection: "Upgrade",
            upgrade: "websocket",
            "sec-websocket-version": "13",
            "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ=="
          }
        })
        request.on("response", (response) => {
          let body = ""
          response.on("data", (chunk) => (body += chunk))
          response.on("end", () => resume(Effect.succeed({ status: response.statusCode ?? 0, body })))
        })
        request.end()
      })
      expect(upgraded.status).toBe(501)
      expect(JSON.parse(upgraded.body)).toMatchObject({
        _tag: "NotImplemented",
        route: `GET /v1/public/channels/voice/{connection_id}/ws`
      })
    }))

  it.effect("an unknown bearer token is a 401 Unauthenticated", () =>
    Effect.gen(function*() {
      const res = yield* exchange(
        HttpClientRequest.get("/v1/agents").pipe(HttpClientRequest.bearerToken("anything"))
      )
      expect(res.status).toBe(401)
      expect(res.json).toMatchObject({ _tag: "Unauthenticated", message: "The access token is not valid" })
    }))

  it.effect("a route reads only the media type its contract declares, so a cross-site form cannot sign anyone in", () =>
    Effect.gen(function*() {
      const form = "email=mallory%40example.com&password=correct+horse+battery+staple"
      const cases = [
        ["application/x-www-form-urlencoded", form],
        ["text/plain", JSON.stringify(validSignup)],
        ["multipart/form-data; boundary=x", "--x\r\nnot really multipart"]
      ] as const
      for (const [contentType, body] of cases) {
        for (const path of ["/v1/auth/login", "/v1/auth/signup"]) {
          const res = yield* exchange(postRaw(path, body, contentType))
          expect(res.status, `${path} ${contentType}`).toBe(415)
          expect(res.json).toMatchObject({ _tag: "UnsupportedMediaType", contentType })
          expect(res.json.message).toContain("application/json")
        }
      }
      const json = yield* exchange(
        postRaw(
          "/v1/auth/login",
          JSON.stringify({ email: "nobody@example.com", password: "x" }),
          "Application/JSON; charset=utf-8"
        )
      )
      expect(json.json._tag).toBe("InvalidCredentials")
      // No body, no content type to check: the route's own answer.
      expect((yield* exchange(HttpClientRequest.post("/v1/auth/refresh"))).json._tag).toBe("InvalidToken")
    }))
})
