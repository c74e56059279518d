/**
 * Headers every answer carries for the browser's sake: `nosniff` (a JSON
 * answer is never run as script or styles), `no-store` on the API (tokens and
 * workspace data stay out of shared and browser caches, unless a route sets its
 * own policy), and, when Parley is reached over HTTPS, HSTS for a year with
 * subdomains, so a browser never sends its cookies over plain HTTP.
 *
 * No answer may be framed (`X-Frame-Options: DENY` and CSP `frame-ancestors
 * 'none'`): Parley serves nothing meant for a frame, so clickjacking has
 * nothing to aim at. Every answer carries a Content-Security-Policy: `default-src
 * 'none'` for the API (OWASP's advice for REST answers), and for an HTML page
 * (the API reference at `/docs`, the mailed links' pages) the least a page
 * needs: its own inline scripts by SHA-256 hash and, when it loads scripts, those of Parley itself,
 * no eval, no outside origin; requests back to Parley only (the reference's
 * "try it" client).
 */
import { HttpApp, HttpServerResponse } from "@effect/platform"
import type { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import * as Crypto from "node:crypto"

/** The HSTS policy sent when the public URL is HTTPS: one year, subdomains included (ASVS 3.4.1). */
export const HSTS = "max-age=31536000; includeSubDomains"

/** The policy of every answer that is not a page: it may load nothing and be framed by nobody. */
export const API_POLICY = "default-src 'none'; frame-ancestors 'none'"

// Inline scripts of a page, as the HTML tokenizer ends them (a script's text cannot hold `</script`).
const inlineScript = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi
const executable = /^\s*(?:|text\/javascript|module|application\/javascript)\s*$/i
const typeAttribute = /\btype\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i

/** The `'sha256-…'` sources of the scripts a page runs inline (data blocks such as JSON are not run). */
export const inlineScriptHashes = (html: string): ReadonlyArray<string> => {
  const hashes = new Set<string>()
  for (const [, attributes, text] of html.matchAll(inlineScript)) {
    if (/\bsrc\s*=/i.test(attributes!)) continue
    const type = typeAttribute.exec(attributes!)
    if (type !== null && !executable.test(type[1] ?? type[2] ?? type[3] ?? "")) continue
    hashes.add(`'sha256-${Crypto.createHash("sha256").update(text!, "utf8").digest("base64")}'`)
  }
  return [...hashes]
}

/** Whether a page loads a script by address (`<script src=…>`): only then may it run scripts from Parley. */
const loadsScripts = (html: string): boolean => /<script\b[^>]*\bsrc\s*=/i.test(html)

/**
 * The policy of an HTML page: scripts by hash, and from Parley when it loads one; styles inline (the reference injects its own at run time,
 * which a hash cannot name); images and fonts from Parley or inline data; requests to Parley only.
 */
export const pagePolicy = (html: string): string =>
  [
    "default-src 'none'",
    `script-src ${
      [...(loadsScripts(html) ? ["'self'"] : []), ...inlineScriptHashes(html), "'wasm-unsafe-eval'"].join(" ")
    }`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'"
  ].join("; ")

// A page's body is made once and served many times: its policy is worked out once.
const pagePolicies = new WeakMap<Uint8Array, string>()
const decoder = new TextDecoder()

const policyOf = (response: HttpServerResponse.HttpServerResponse): string => {
  const body = response.body
  const contentType = body.contentType ?? response.headers["content-type"] ?? ""
  if (!contentType.toLowerCase().startsWith("text/html")) return API_POLICY
  // A page whose text is not at hand (a stream) runs no script at all.
  if (body._tag !== "Uint8Array") return pagePolicy("")
  let policy = pagePolicies.get(body.body)
  if (policy === undefined) {
    policy = pagePolicy(decoder.decode(body.body))
    pagePolicies.set(body.body, policy)
  }
  return policy
}

/** Whether a URL is the API's as the router reads it: in any case, doubled slashes collapsed (`//V1/auth/me`). */
export const isApi = (url: string) => url.replace(/\/{2,}/g, "/").toLowerCase().startsWith("/v1/")

export const securityHeaders =
  (options: { readonly https: boolean }) =>
  <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R | HttpServerRequest.HttpServerRequest> =>
    Effect.zipRight(
      HttpApp.appendPreResponseHandler((request, response) => {
        const headers: Record<string, string> = {
          "x-content-type-options": "nosniff",
          "x-frame-options": "DENY"
        }
        if (response.headers["content-security-policy"] === undefined) {
          headers["content-security-policy"] = policyOf(response)
        }
        if (options.https) headers["strict-transport-security"] = HSTS
        if (isApi(request.url) && response.headers["cache-control"] === undefined) {
          headers["cache-control"] = "no-store"
        }
        return Effect.succeed(HttpServerResponse.setHeaders(response, headers))
      }),
      app
    )
