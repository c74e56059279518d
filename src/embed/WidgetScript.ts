/**
 * The web chat widget as served: the browser script `widget.js` beside this
 * module (copied next to the compiled module by the build), read once, with
 * a strong ETag of its content so browsers revalidate cheaply.
 */
import { Effect } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"

/** The widget's source and its entity tag. */
export interface WidgetScript {
  readonly source: string
  readonly etag: string
}

/** The path the widget is served at; the snippet deployments hand out points here. */
export const WIDGET_PATH = "/embed/v1/widget.js"

/** How long browsers and caches may use the script before revalidating it with its ETag. */
export const WIDGET_CACHE_CONTROL = "public, max-age=300"

/** The entity tag of a script: a quoted prefix of its SHA-256, URL-safe base64. */
export const etagOf = (source: string) =>
  `"${Crypto.createHash("sha256").update(source).digest("base64url").slice(0, 27)}"`

/**
 * Whether an `If-None-Match` header names `etag` (`*`, a list, weak
 * validators compared weakly as RFC 9110 asks for GET).
 */
export const ifNoneMatchHits = (header: string | undefined, etag: string) =>
  header !== undefined &&
  header.split(",").some((candidate) => {
    const tag = candidate.trim()
    return tag === "*" || tag.replace(/^W\//, "") === etag
  })

/** Reads the widget; a missing file is a broken installation, so a defect. */
export const loadWidgetScript: Effect.Effect<WidgetScript> = Effect.sync(() => {
  const source = Fs.readFileSync(new URL("./widget.js", import.meta.url), "utf8")
  return { source, etag: etagOf(source) }
})
