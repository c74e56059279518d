/**
 * A body served as it is many times (the API document, the reference's
 * script): made once, on first use, with a gzip copy for the clients that
 * accept it and a strong ETag, so a browser downloads a megabyte-sized asset
 * at about a quarter of its size and afterwards only revalidates it (304) or,
 * for an address that names its version, does not ask again at all.
 */
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import * as Zlib from "node:zlib"
import { etagOf, ifNoneMatchHits } from "../../embed/WidgetScript.js"

export interface StaticAsset {
  readonly body: Uint8Array
  /** The gzip copy; none for a body too small to gain (or an HTML page, whose policy is read from its text). */
  readonly gzip: Uint8Array | undefined
  /** The entity tag of the body; the gzip copy's is this one with `-gzip` inside the quotes. */
  readonly etag: string
  readonly contentType: string
  readonly cacheControl: string
}

/** An asset of `text`, compressed once unless told not to. */
export const makeAsset = (
  text: string,
  contentType: string,
  cacheControl: string,
  options: { readonly compress: boolean } = { compress: true }
): StaticAsset => {
  const body = new TextEncoder().encode(text)
  return {
    body,
    gzip: options.compress ? Zlib.gzipSync(body, { level: 9 }) : undefined,
    etag: etagOf(text),
    contentType,
    cacheControl
  }
}

/** Whether an `Accept-Encoding` header accepts gzip (named, or `*`, with a quality above 0). */
export const acceptsGzip = (header: string | undefined): boolean =>
  header !== undefined &&
  header.split(",").some((part) => {
    const [coding, ...parameters] = part.split(";").map((piece) => piece.trim().toLowerCase())
    if (coding !== "gzip" && coding !== "x-gzip" && coding !== "*") return false
    const quality = parameters.find((parameter) => parameter.startsWith("q="))
    return quality === undefined || Number(quality.slice(2)) > 0
  })

/** Answers a GET for `asset` (304 when the client's copy is current, gzip when accepted). */
export const serveAsset = (asset: Effect.Effect<StaticAsset>) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const { body, cacheControl, contentType, etag, gzip } = yield* asset
    const compressed = acceptsGzip(request.headers["accept-encoding"]) ? gzip : undefined
    // Each representation has its own tag (RFC 9110 8.8.3): a cache never mixes them up.
    const tag = compressed !== undefined ? `${etag.slice(0, -1)}-gzip"` : etag
    const headers = { etag: tag, "cache-control": cacheControl, vary: "accept-encoding" }
    if (ifNoneMatchHits(request.headers["if-none-match"], tag)) {
      return HttpServerResponse.empty({ status: 304, headers })
    }
    return compressed !== undefined
      ? HttpServerResponse.uint8Array(compressed, { contentType, headers: { ...headers, "content-encoding": "gzip" } })
      : HttpServerResponse.uint8Array(body, { contentType, headers })
  })
