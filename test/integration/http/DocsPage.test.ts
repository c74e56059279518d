/**
 * The API reference at `/docs` under its Content-Security-Policy: the page runs
 * scripts from Parley only (it has no inline script) and allows nothing from
 * elsewhere, no page may frame it, and the page still works in a real browser (Debian's
 * Chromium): it renders the operations, opens a group on a click, and the
 * browser reports no violation but one the reference provokes on purpose (see
 * below). Every other answer carries the API's policy and frame protection.
 */
import { HttpClientRequest, HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Http from "node:http"
import * as Zlib from "node:zlib"
import { API_POLICY } from "../../../src/http/middleware/SecurityHeaders.js"
import { chromiumContext } from "../../support/Chromium.js"
import { exchange } from "../../support/Http.js"
import { testServer } from "../../support/TestServer.js"

/** A GET over plain HTTP (no client decompressing for us): status, headers, the body's bytes. */
const raw = (path: string, headers: Record<string, string> = {}) =>
  Effect.flatMap(
    HttpServer.HttpServer,
    (server) =>
      Effect.async<{ status: number; headers: Http.IncomingHttpHeaders; body: Buffer }>((resume) => {
        const { port } = server.address as HttpServer.TcpAddress
        const request = Http.get({ host: "127.0.0.1", port, path, headers }, (response) => {
          const chunks: Array<Buffer> = []
          response.on("data", (chunk: Buffer) => chunks.push(chunk))
          response.on("end", () =>
            resume(
              Effect.succeed({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) })
            ))
        })
        request.on("error", (error) => resume(Effect.die(error)))
      })
  )

/** A policy's directives by name. */
const directives = (policy: string) =>
  new Map(policy.split(";").map((part) => part.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]))

/** A violation the page reported, as the `securitypolicyviolation` event describes it. */
interface Violation {
  readonly directive: string
  readonly blocked: string
  readonly source: string
}

layer(testServer(), { excludeTestServices: true, timeout: "180 seconds" })("the API reference's policy", (it) => {
  it.effect("/docs runs no inline script and nothing from elsewhere; no answer may be framed", () =>
    Effect.gen(function*() {
      const docs = yield* exchange(HttpClientRequest.get("/docs"))
      expect(docs.status).toBe(200)
      expect(docs.headers["x-frame-options"]).toBe("DENY")
      const policy = directives(docs.headers["content-security-policy"]!)
      expect(policy.get("default-src")).toEqual(["'none'"])
      expect(policy.get("frame-ancestors")).toEqual(["'none'"])
      expect(policy.get("base-uri")).toEqual(["'none'"])
      expect(policy.get("form-action")).toEqual(["'none'"])
      expect(policy.get("connect-src")).toEqual(["'self'"])
      // No inline script at all: the configuration is a JSON data attribute, the script comes from Parley.
      const inline = [...docs.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
        .filter(([attributes]) => !/application\/json|\bsrc=/.test(attributes!))
      expect(inline).toEqual([])
      expect(policy.get("script-src")).toEqual(["'self'", "'wasm-unsafe-eval'"])
      const everySource = [...policy.values()].flat()
      expect(
        everySource.filter((source) => /unsafe-eval'|^https?:|^\*$/.test(source) && source !== "'wasm-unsafe-eval'")
      )
        .toEqual([])
      // The reference's own fonts would come from a CDN; the page is told to use the browser's.
      expect(docs.text).toContain(`withDefaultFonts&quot;:false`)

      for (
        const request of [
          HttpClientRequest.get("/openapi.json"),
          HttpClientRequest.get("/health/live"),
          HttpClientRequest.get("/v1/auth/me"),
          HttpClientRequest.get("/v1/no/such/route"),
          HttpClientRequest.get("/embed/v1/widget.js")
        ]
      ) {
        const answer = yield* exchange(request)
        expect({ url: request.url, frame: answer.headers["x-frame-options"] }).toEqual({
          url: request.url,
          frame: "DENY"
        })
        expect(answer.headers["content-security-policy"], request.url).toBe(API_POLICY)
      }
    }))

  it.effect("the page is small; its script and the API document are compressed and cached", () =>
    Effect.gen(function*() {
      const docs = yield* exchange(HttpClientRequest.get("/docs"))
      expect(docs.text.length).toBeLessThan(2_000)
      // The page itself is sent as it is (its policy is read from its text), even to a client taking gzip.
      const page = yield* raw("/docs", { "accept-encoding": "gzip" })
      expect(page.headers["content-encoding"]).toBeUndefined()
      expect(page.headers["content-security-policy"]).toContain("script-src 'self'")
      expect(docs.headers["cache-control"]).toBe("no-cache")
      const src = /<script src="([^"]+)"/.exec(docs.text)![1]!
      expect(src).toMatch(/^docs\/scalar\.js\?v=[A-Za-z0-9_-]{12}$/)

      const plain = yield* raw(`/${src}`)
      expect(plain.status).toBe(200)
      expect(plain.headers["content-type"]).toBe("text/javascript; charset=utf-8")
      expect(plain.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
      expect(plain.headers["content-encoding"]).toBeUndefined()
      expect(plain.body.length).toBeGreaterThan(1_000_000)
      const zipped = yield* raw(`/${src}`, { "accept-encoding": "gzip, deflate, br" })
      expect(zipped.headers["content-encoding"]).toBe("gzip")
      expect(zipped.headers.vary).toBe("accept-encoding")
      expect(zipped.body.length).toBeLessThan(plain.body.length / 3)
      expect(Zlib.gunzipSync(zipped.body).equals(plain.body)).toBe(true)
      // Refused gzip (q=0) gets the plain body; each representation has its own tag, and a current copy is a 304.
      expect((yield* raw(`/${src}`, { "accept-encoding": "gzip;q=0" })).headers["content-encoding"]).toBeUndefined()
      expect(zipped.headers.etag).not.toBe(plain.headers.etag)
      const again = yield* raw(`/${src}`, { "accept-encoding": "gzip", "if-none-match": zipped.headers.etag! })
      expect([again.status, again.body.length]).toEqual([304, 0])

      const document = yield* raw("/openapi.json", { "accept-encoding": "gzip" })
      expect(document.headers["content-encoding"]).toBe("gzip")
      expect(JSON.parse(Zlib.gunzipSync(document.body).toString("utf8")).paths["/v1/agents/{agent_id}/flow/repair"])
        .toBeDefined()
      const revalidated = yield* raw("/openapi.json", {
        "accept-encoding": "gzip",
        "if-none-match": document.headers.etag!
      })
      expect(revalidated.status).toBe(304)
    }))

  it.scoped(
    "renders and works in Chromium with no violation of its policy, and no page can frame it",
    () =>
      Effect.gen(function*() {
        const address = (yield* HttpServer.HttpServer).address as HttpServer.TcpAddress
        const base = `http://127.0.0.1:${address.port}`
        const context = yield* chromiumContext
        const page = yield* Effect.promise(() => context.newPage())
        const consoleReports: Array<string> = []
        const pageErrors: Array<string> = []
        page.on("console", (message) => {
          if (/Content.Security.Policy|Refused to/i.test(message.text())) consoleReports.push(message.text())
        })
        page.on("pageerror", (error) => pageErrors.push(error.message))
        // Every violation the browser finds, whether or not it logs it.
        yield* Effect.promise(() =>
          page.addInitScript(() => {
            const seen: Array<Violation> = []
            const global = globalThis as any
            global.parleyViolations = seen
            global.document.addEventListener("securitypolicyviolation", (event: any) =>
              seen.push({
                directive: event.effectiveDirective,
                blocked: event.blockedURI,
                source: `${event.lineNumber}:${event.columnNumber}`
              }))
          })
        )
        const docs = yield* Effect.promise(() => page.goto(`${base}/docs`))
        expect(docs?.status()).toBe(200)
        // The operations are listed (a group opened by default), and a click opens another group.
        yield* Effect.promise(async () => {
          await page.getByText("Liveness: the process is up").first().waitFor({ timeout: 120_000 })
          // The sidebar's group (the first of the page's "Auth" buttons), opened by keyboard as a user may.
          await page.locator("button").filter({ has: page.getByText("Auth", { exact: true }) }).first().press("Enter")
          await page.getByText("Sign in with email and password").first().waitFor({ timeout: 30_000 })
        })
        const violations = yield* Effect.promise(() =>
          page.evaluate(() => (globalThis as unknown as { parleyViolations: Array<Violation> }).parleyViolations)
        )
        // The bundled schema library probes whether it may compile validators (`try { new Function("") }`) and
        // falls back when it may not: that refused probe is the policy at work, the one report it may make.
        expect(violations.filter((violation) => violation.blocked !== "eval")).toEqual([])
        expect(violations.length).toBeLessThanOrEqual(1)
        expect(consoleReports).toEqual([])
        expect(pageErrors).toEqual([])

        // Another page (here, one of no origin at all) frames the reference: the browser refuses.
        const framing = yield* Effect.promise(() => context.newPage())
        const refusals: Array<string> = []
        framing.on("console", (message) => refusals.push(message.text()))
        yield* Effect.promise(() => framing.setContent(`<iframe src="${base}/docs" width="600" height="400"></iframe>`))
        yield* Effect.promise(() => framing.waitForTimeout(2000))
        const framed = framing.frames().find((frame) => frame !== framing.mainFrame())
        const framedText = yield* Effect.promise(() =>
          framed === undefined
            ? Promise.resolve("")
            : framed.evaluate(() => (globalThis as any).document.body?.innerText ?? "")
        )
        expect(framedText).not.toContain("Liveness")
        expect(refusals.join("\n")).toMatch(/frame-ancestors|X-Frame-Options/)
      }),
    { timeout: 180_000 }
  )
})
