/**
 * The API reference at `/docs` under its Content-Security-Policy: the policy
 * names the page's inline scripts by hash and allows nothing from elsewhere, no
 * page may frame it, and the page still works in a real browser (Debian's
 * Chromium): it renders the operations, opens a group on a click, and the
 * browser reports no violation but one the reference provokes on purpose (see
 * below). Every other answer carries the API's policy and frame protection.
 */
import { HttpClientRequest, HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Crypto from "node:crypto"
import { API_POLICY } from "../../src/http/middleware/SecurityHeaders.js"
import { chromiumContext } from "../support/Chromium.js"
import { exchange } from "../support/Http.js"
import { testServer } from "../support/TestServer.js"

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
  it.effect("/docs allows its own inline scripts by hash and nothing from elsewhere; no answer may be framed", () =>
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
      // Exactly the page's executable inline scripts (not its JSON data block), and no eval of JavaScript.
      const inline = [...docs.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
        .filter(([, attributes]) => !attributes!.includes("application/json"))
        .map(([, , text]) => `'sha256-${Crypto.createHash("sha256").update(text!).digest("base64")}'`)
      expect(inline.length).toBeGreaterThanOrEqual(2)
      expect(policy.get("script-src")).toEqual([...inline, "'wasm-unsafe-eval'"])
      const everySource = [...policy.values()].flat()
      expect(
        everySource.filter((source) => /unsafe-eval'|^https?:|^\*$/.test(source) && source !== "'wasm-unsafe-eval'")
      )
        .toEqual([])
      // The reference's own fonts would come from a CDN; the page is told to use the browser's.
      expect(docs.text).toContain(`"withDefaultFonts":false`)

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
