/**
 * Headers every answer carries for the browser's sake: `nosniff` (a JSON
 * answer is never run as script or styles), `no-store` on the API (tokens and
 * workspace data stay out of shared and browser caches, unless a route sets its
 * own policy), and, when Parley is reached over HTTPS, HSTS for a year with
 * subdomains, so a browser never sends its cookies over plain HTTP.
 */
import { HttpApp, HttpServerResponse } from "@effect/platform"
import type { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"

/** The HSTS policy sent when the public URL is HTTPS: one year, subdomains included (ASVS 3.4.1). */
export const HSTS = "max-age=31536000; includeSubDomains"

export const securityHeaders =
  (options: { readonly https: boolean }) =>
  <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R | HttpServerRequest.HttpServerRequest> =>
    Effect.zipRight(
      HttpApp.appendPreResponseHandler((request, response) => {
        const headers: Record<string, string> = { "x-content-type-options": "nosniff" }
        if (options.https) headers["strict-transport-security"] = HSTS
        if (request.url.startsWith("/v1/") && response.headers["cache-control"] === undefined) {
          headers["cache-control"] = "no-store"
        }
        return Effect.succeed(HttpServerResponse.setHeaders(response, headers))
      }),
      app
    )
