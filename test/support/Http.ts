import { type Cookies, HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect } from "effect"

/** A raw exchange with the test server: status, headers and the body as text (and parsed, when JSON). */
export interface Exchange {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** The cookies the response sets, by name, with their attributes. */
  readonly cookies: Cookies.Cookies
  readonly text: string
  readonly json: any
}

/**
 * Send a request to the test server and read the whole answer, whatever its
 * status. The client propagates its own trace unless told not to (to send a
 * `traceparent` of the test's choosing).
 */
export const exchange = (
  request: HttpClientRequest.HttpClientRequest,
  options?: { readonly propagateTrace: boolean }
) =>
  Effect.flatMap(
    HttpClient.HttpClient,
    (client) => HttpClient.withTracerPropagation(client, options?.propagateTrace ?? true).execute(request)
  ).pipe(
    Effect.flatMap((response) =>
      Effect.map(response.text, (text): Exchange => {
        let json: unknown = undefined
        try {
          json = JSON.parse(text)
        } catch {
          // not JSON
        }
        return { status: response.status, headers: response.headers, cookies: response.cookies, text, json }
      })
    ),
    Effect.scoped
  )

/** A POST with a raw body and content type. */
export const postRaw = (url: string, body: string, contentType = "application/json") =>
  HttpClientRequest.post(url).pipe(HttpClientRequest.bodyText(body, contentType))

export { HttpClientRequest }
