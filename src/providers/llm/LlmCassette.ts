/**
 * Record and replay of LLM HTTP exchanges, so agent tests and evals run with
 * no network and the same answers every time. Recording happens at the HTTP
 * level: the request's method, URL and body bytes make its key, and the
 * response's status, headers and body bytes are kept; replay answers those
 * bytes exactly (streams included: the SSE text is the body) and refuses a
 * request it has not seen. Request headers are never written, so neither are
 * API keys. The file is JSON lines, one exchange a line, appended in order;
 * the same request recorded twice replays its answers in that order, then
 * the last one again.
 */
import { HttpClient, HttpClientError, type HttpClientRequest, HttpClientResponse, UrlParams } from "@effect/platform"
import { Effect } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import { llmFailure } from "./LlmCallFailure.js"

/** One recorded exchange. */
export interface CassetteEntry {
  readonly key: string
  readonly method: string
  readonly url: string
  /** The request body as text (prompts, tools): what a reader of the file looks for. */
  readonly request: string
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** The response body, base64. */
  readonly body: string
}

const bodyBytes = (request: HttpClientRequest.HttpClientRequest): Uint8Array =>
  request.body._tag === "Uint8Array" ? request.body.body : new Uint8Array()

/** The request's URL with its query. */
const fullUrl = (request: HttpClientRequest.HttpClientRequest): string => {
  const query = UrlParams.toString(request.urlParams)
  return query === "" ? request.url : `${request.url}?${query}`
}

/** The key of a request: its method, URL (with the query) and body, hashed. */
export const cassetteKey = (request: HttpClientRequest.HttpClientRequest): string =>
  Crypto.createHash("sha256").update(`${request.method} ${fullUrl(request)}\n`).update(bodyBytes(request)).digest("hex")

/** Response headers worth replaying (not cookies, not hop-by-hop ones). */
const keptHeaders = (headers: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).filter(([name]) =>
      !["set-cookie", "connection", "keep-alive", "transfer-encoding", "date"].includes(name.toLowerCase())
    )
  )

const answer = (request: HttpClientRequest.HttpClientRequest, entry: CassetteEntry) =>
  HttpClientResponse.fromWeb(
    request,
    new Response(entry.status === 204 ? null : Buffer.from(entry.body, "base64"), {
      status: entry.status,
      headers: entry.headers
    })
  )

/** `client`, each exchange appended to `path` (a response is read whole before the caller sees it). */
export const recording = (client: HttpClient.HttpClient, path: string): HttpClient.HttpClient =>
  HttpClient.transform(client, (effect, request) =>
    Effect.gen(function*() {
      const response = yield* effect
      const body = new Uint8Array(yield* response.arrayBuffer)
      const entry: CassetteEntry = {
        key: cassetteKey(request),
        method: request.method,
        url: fullUrl(request),
        request: new TextDecoder().decode(bodyBytes(request)),
        status: response.status,
        headers: keptHeaders(response.headers),
        body: Buffer.from(body).toString("base64")
      }
      yield* Effect.promise(() => Fs.promises.appendFile(path, `${JSON.stringify(entry)}\n`))
      return answer(request, entry)
    }))

/** Read a cassette file; a missing file is an empty cassette. */
export const readCassette = (path: string): ReadonlyArray<CassetteEntry> => {
  const text = Fs.existsSync(path) ? Fs.readFileSync(path, "utf8") : ""
  return text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line) as CassetteEntry)
}

/** A client that answers only from `entries`, and fails an unrecorded request with `not-recorded`. */
export const replaying = (entries: ReadonlyArray<CassetteEntry>): HttpClient.HttpClient => {
  const byKey = new Map<string, Array<CassetteEntry>>()
  for (const entry of entries) byKey.set(entry.key, [...(byKey.get(entry.key) ?? []), entry])
  const served = new Map<string, number>()
  return HttpClient.make((request) => {
    const key = cassetteKey(request)
    const recorded = byKey.get(key)
    if (recorded === undefined) {
      const failure = llmFailure(
        "not-recorded",
        `no recorded exchange for ${request.method} ${fullUrl(request)} (${key.slice(0, 12)})`
      )
      return Effect.fail(
        new HttpClientError.RequestError({ request, reason: "Transport", cause: failure, description: failure.message })
      )
    }
    const index = served.get(key) ?? 0
    served.set(key, index + 1)
    return Effect.succeed(answer(request, recorded[Math.min(index, recorded.length - 1)]!))
  })
}
