/**
 * `GET /docs`, `/docs/scalar.js` and `/openapi.json`: the interactive API
 * reference and the document it reads, served beside the contract without
 * authentication. The document (`apiDocument`) is generated from the
 * `HttpApi` once, on first use; the script is the one `@effect/platform` ships for `HttpApiScalar`
 * (Scalar's standalone bundle, read from that package's own file, as no
 * export names it). Both are gzip-compressed once and carry ETags; the
 * script's address names its version (`?v=<hash>`), so browsers keep it for a
 * year and never ask again until Parley is upgraded.
 */
import { HttpApi, HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { createRequire } from "node:module"
import * as Path from "node:path"
import { pathToFileURL } from "node:url"
import { apiDocument } from "./ApiDocument.js"
import { referencePage } from "./ReferencePage.js"
import { makeAsset, serveAsset } from "./StaticAsset.js"

export const REFERENCE_SCRIPT_PATH = "/docs/scalar.js"

/** The reference's routes, as the route table lists them (for 405 answers). */
export const referenceRoutes = [
  { method: "GET", path: "/openapi.json", group: "documentation", name: "openapi" },
  { method: "GET", path: "/docs", group: "documentation", name: "docs" },
  { method: "GET", path: REFERENCE_SCRIPT_PATH, group: "documentation", name: "docsScript" }
] as const

/** Scalar's standalone bundle as `@effect/platform` embeds it (`HttpApiScalar` serves it inline). */
const scalarSource = Effect.promise(async () => {
  const platform = Path.dirname(createRequire(import.meta.url).resolve("@effect/platform/package.json"))
  const module = await import(pathToFileURL(Path.join(platform, "dist/esm/internal/httpApiScalar.js")).href)
  return module.javascript as string
})

/** Adds the reference's routes to the API's router. */
export const ReferenceRoutesLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const { api } = yield* HttpApi.Api
    const spec = yield* Effect.cached(Effect.sync(() => apiDocument(api)))
    const document = yield* Effect.cached(
      Effect.map(spec, (document) => makeAsset(JSON.stringify(document), "application/json", "no-cache"))
    )
    const script = yield* Effect.cached(Effect.map(scalarSource, (source) =>
      makeAsset(source, "text/javascript; charset=utf-8", "public, max-age=31536000, immutable")))
    const page = yield* Effect.cached(Effect.gen(function*() {
      const { info } = yield* spec
      const version = (yield* script).etag.slice(1, 13)
      return makeAsset(
        referencePage({
          title: info.title,
          description: info.description ?? "",
          scriptUrl: `docs/scalar.js?v=${version}`
        }),
        "text/html; charset=utf-8",
        "no-cache",
        // 1.7 kB; and the security headers read the page's policy from its text.
        { compress: false }
      )
    }))
    yield* router.get("/openapi.json", serveAsset(document))
    yield* router.get(REFERENCE_SCRIPT_PATH, serveAsset(script))
    yield* router.get("/docs", serveAsset(page))
  })
)
