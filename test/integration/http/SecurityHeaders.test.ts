/**
 * Headers for the browser's sake on every answer: `nosniff` everywhere,
 * `no-store` on the API, and HSTS (one year, subdomains) only when Parley is
 * reached over HTTPS (a browser ignores it over HTTP, and a local HTTP setup
 * must not be pinned).
 */
import { HttpClientRequest, HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { HSTS } from "../../../src/http/middleware/SecurityHeaders.js"
import { exchange } from "../../support/Http.js"
import { testServer } from "../../support/TestServer.js"
import { send } from "../fuzz/RawHttp.js"

const requests = [
  HttpClientRequest.get("/v1/auth/me"),
  HttpClientRequest.post("/v1/auth/login").pipe(HttpClientRequest.bodyText("{", "application/json")),
  HttpClientRequest.get("/v1/no/such/route"),
  HttpClientRequest.get("/health/live")
]

layer(testServer({ PARLEY_PUBLIC_URL: "https://parley.example.com" }), { excludeTestServices: true })(
  "security headers over HTTPS",
  (it) => {
    it.effect("HSTS and nosniff on every answer, no-store on the API", () =>
      Effect.gen(function*() {
        for (const request of requests) {
          const answer = yield* exchange(request)
          expect(answer.headers["strict-transport-security"], request.url).toBe(HSTS)
          expect(answer.headers["x-content-type-options"], request.url).toBe("nosniff")
          expect(answer.headers["cache-control"], request.url).toBe(
            request.url.startsWith("/v1/") ? "no-store" : undefined
          )
        }
        expect(HSTS).toBe("max-age=31536000; includeSubDomains")
      }))

    it.effect("no-store on the API however its path is spelled (the router ignores case and doubled slashes)", () =>
      Effect.gen(function*() {
        const { port } = (yield* HttpServer.HttpServer).address as HttpServer.TcpAddress
        for (const path of ["/V1/auth/me", "//v1/auth/me", "/v1//auth/me", "/V1/NO/SUCH/ROUTE"]) {
          // Sent as written: a URL parser would read `//v1` as a host.
          const answer = yield* send(port, { method: "GET", target: path, headers: {} }, 10_000)
          expect({ path, cache: answer._tag === "Answered" ? answer.headers["cache-control"] : answer._tag })
            .toEqual({ path, cache: "no-store" })
        }
      }))
  }
)

layer(testServer({ PARLEY_PUBLIC_URL: "http://localhost:8080" }), { excludeTestServices: true })(
  "security headers over HTTP",
  (it) => {
    it.effect("no HSTS when Parley is reached over plain HTTP", () =>
      Effect.gen(function*() {
        for (const request of requests) {
          const answer = yield* exchange(request)
          expect(answer.headers["strict-transport-security"], request.url).toBeUndefined()
          expect(answer.headers["x-content-type-options"], request.url).toBe("nosniff")
        }
      }))
  }
)
