/**
 * The widget's route over real HTTP: served without credentials as
 * JavaScript, with its ETag and cache policy, revalidated with a 304, the
 * exact bytes of `src/embed/widget.js`, within its size budget; other methods
 * are a 405.
 */
import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as Zlib from "node:zlib"
import { etagOf, ifNoneMatchHits } from "../../../src/embed/WidgetScript.js"
import { exchange } from "../../support/Http.js"
import { testServer } from "../../support/TestServer.js"

const source = Fs.readFileSync(new URL("../../../src/embed/widget.js", import.meta.url), "utf8")

describe("If-None-Match", () => {
  it("matches the tag, a list holding it, its weak form and *; nothing else", () => {
    const etag = etagOf(source)
    expect(ifNoneMatchHits(etag, etag)).toBe(true)
    expect(ifNoneMatchHits(`"other", ${etag}`, etag)).toBe(true)
    expect(ifNoneMatchHits(`W/${etag}`, etag)).toBe(true)
    expect(ifNoneMatchHits("*", etag)).toBe(true)
    expect(ifNoneMatchHits(undefined, etag)).toBe(false)
    expect(ifNoneMatchHits("\"other\"", etag)).toBe(false)
    expect(ifNoneMatchHits(etagOf(source + " "), etag)).toBe(false)
  })
})

layer(testServer())("GET /embed/v1/widget.js", (it) => {
  it.effect("serves the widget as JavaScript, without credentials, with an ETag and a cache policy", () =>
    Effect.gen(function*() {
      const answer = yield* exchange(HttpClientRequest.get("/embed/v1/widget.js"))
      expect(answer.status).toBe(200)
      expect(answer.headers["content-type"]).toBe("text/javascript; charset=utf-8")
      expect(answer.headers["cache-control"]).toBe("public, max-age=300")
      expect(answer.headers["etag"]).toBe(etagOf(source))
      expect(answer.headers["x-content-type-options"]).toBe("nosniff")
      expect(answer.headers["x-trace-id"]).toMatch(/^[0-9a-f]{32}$/)
      expect(answer.text).toBe(source)
      // Both chats (deployments and AI agents), unminified: 28 KiB, about 8 KiB gzipped.
      expect(Buffer.byteLength(answer.text)).toBeLessThan(32 * 1024)
      expect(Zlib.gzipSync(answer.text).byteLength).toBeLessThan(10 * 1024)
    }))

  it.effect("answers 304 without a body when the browser's copy is current, 200 when it is not", () =>
    Effect.gen(function*() {
      const etag = etagOf(source)
      const current = yield* exchange(
        HttpClientRequest.get("/embed/v1/widget.js").pipe(HttpClientRequest.setHeader("if-none-match", etag))
      )
      expect(current.status).toBe(304)
      expect(current.text).toBe("")
      expect(current.headers["etag"]).toBe(etag)
      expect(current.headers["cache-control"]).toBe("public, max-age=300")
      const stale = yield* exchange(
        HttpClientRequest.get("/embed/v1/widget.js").pipe(HttpClientRequest.setHeader("if-none-match", "\"old\""))
      )
      expect(stale.status).toBe(200)
      expect(stale.text).toBe(source)
    }))

  it.effect("another method is a 405 naming GET; another version is a 404", () =>
    Effect.gen(function*() {
      const post = yield* exchange(HttpClientRequest.post("/embed/v1/widget.js"))
      expect(post.status).toBe(405)
      expect(post.headers["allow"]).toContain("GET")
      const missing = yield* exchange(HttpClientRequest.get("/embed/v2/widget.js"))
      expect(missing.status).toBe(404)
    }))
})
