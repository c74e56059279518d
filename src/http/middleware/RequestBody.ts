/**
 * Request bodies are bounded and, when textual, well-formed before anything
 * else looks at the request: 1 MiB by default, 10 MiB for imports and uploads
 * (both configurable). A declared `Content-Length` over the limit is refused
 * before any byte is read; a chunked body is refused when it passes the limit.
 * Textual bodies (JSON, forms, text) are read once here, decoded as strict
 * UTF-8 and served from memory. A JSON body that nests deeper than
 * `MAX_JSON_DEPTH` or does not parse is a 400 `MalformedBody`; one holding a
 * string or key Parley cannot store (a NUL character, a lone surrogate) is a
 * 400 `InvalidText` naming it; both even on a route whose caller is not yet
 * known. Multipart fields get the same check as they are read.
 */
import { HttpIncomingMessage, HttpMethod, HttpServerRequest } from "@effect/platform"
import type { HttpApp } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect, Option } from "effect"
import type { IncomingMessage } from "node:http"
import { MalformedBody, PayloadTooLarge } from "../../domain/HttpErrors.js"
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../../domain/JsonDepth.js"
import { findFlaw, type FlawedField, flawOf } from "../../domain/StorableText.js"
import { jsonError } from "../JsonError.js"
import { BufferedRequest } from "./BufferedRequest.js"
import { CheckedMultipartRequest } from "./CheckedMultipart.js"
import { invalidText, pairsFlaw } from "./RequestText.js"

const uploadPaths = [
  /^\/v1\/imports\//,
  /^\/v1\/workspace-models\/datasets$/,
  /^\/v1\/ai-agents\/[^/]+\/knowledge(\/|$)/
]

/** The body limit of a path, given the general and the upload limits. */
export const bodyLimitFor = (limits: { readonly body: number; readonly upload: number }) => (path: string): number =>
  uploadPaths.some((pattern) => pattern.test(path.split("?")[0]!)) ? limits.upload : limits.body

type BodyKind = "json" | "form" | "text" | "multipart" | "other"

/** How the API will read the body: as JSON when no content type is given. */
const bodyKind = (request: HttpServerRequest.HttpServerRequest): BodyKind => {
  const contentType = request.headers["content-type"]?.toLowerCase()
  if (contentType === undefined || contentType.includes("json")) return "json"
  if (contentType.includes("x-www-form-urlencoded")) return "form"
  if (contentType.startsWith("text/")) return "text"
  if (contentType.startsWith("multipart/")) return "multipart"
  return "other"
}

/** Read the whole body, or `None` as soon as it passes `limit` (reading then stops). */
const readBounded = (source: IncomingMessage, limit: number) =>
  Effect.async<Option.Option<Uint8Array>, Error>((resume) => {
    const chunks: Array<Buffer> = []
    let bytes = 0
    const stop = () => {
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("error", onError)
    }
    function onData(chunk: Buffer) {
      bytes += chunk.length
      if (bytes > limit) {
        stop()
        source.pause()
        resume(Effect.succeed(Option.none()))
      } else {
        chunks.push(chunk)
      }
    }
    function onEnd() {
      stop()
      resume(Effect.succeed(Option.some(new Uint8Array(Buffer.concat(chunks)))))
    }
    function onError(error: Error) {
      stop()
      resume(Effect.fail(error))
    }
    source.on("data", onData)
    source.on("end", onEnd)
    source.on("error", onError)
    return Effect.sync(stop)
  })

const tooLarge = (limit: number, closeConnection: boolean) =>
  jsonError(
    PayloadTooLarge,
    new PayloadTooLarge({ limitBytes: limit, message: `The request body exceeds ${limit} bytes` }),
    closeConnection ? { connection: "close" } : undefined
  )

const malformed = (reason: string) => jsonError(MalformedBody, new MalformedBody({ message: reason }))

const strictUtf8 = new TextDecoder("utf-8", { fatal: true })

/** A textual body, decoded and checked: the request to serve, or the answer refusing it. */
type Checked =
  | { readonly _tag: "Served"; readonly text: string; readonly parsed: Option.Option<unknown> }
  | { readonly _tag: "Malformed"; readonly reason: string }
  | { readonly _tag: "Invalid"; readonly flawed: FlawedField }

const served = (text: string, parsed: Option.Option<unknown> = Option.none()): Checked => ({
  _tag: "Served",
  text,
  parsed
})

const checkJson = (text: string): Checked => {
  if (text.trim() === "") return served(text)
  // Before parsing: what sees the value afterwards (decoding, error formatting) recurses per level.
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    return { _tag: "Malformed", reason: `Malformed JSON body: nested deeper than ${MAX_JSON_DEPTH} levels` }
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return { _tag: "Malformed", reason: `Malformed JSON body: ${(error as Error).message}` }
  }
  const flawed = findFlaw(value, "body")
  return flawed === undefined ? served(text, Option.some(value)) : { _tag: "Invalid", flawed }
}

const checkBody = (kind: BodyKind, body: Uint8Array): Checked => {
  let text: string
  try {
    text = strictUtf8.decode(body)
  } catch {
    return { _tag: "Invalid", flawed: { field: "body", flaw: "invalid-utf-8", inKey: false } }
  }
  if (kind === "json") return checkJson(text)
  if (kind === "form") {
    const flawed = pairsFlaw(text, "body")
    return flawed === undefined ? served(text) : { _tag: "Invalid", flawed }
  }
  const flaw = flawOf(text)
  return flaw === undefined ? served(text) : { _tag: "Invalid", flawed: { field: "body", flaw, inKey: false } }
}

export const requestBody =
  (limitOf: (path: string) => number) =>
  <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R | HttpServerRequest.HttpServerRequest> =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const limit = limitOf(request.url)
      const declared = Number(request.headers["content-length"] ?? "0")
      if (Number.isFinite(declared) && declared > limit) return tooLarge(limit, false)
      const kind = bodyKind(request)
      if (!HttpMethod.hasBody(request.method) || kind === "other") {
        return HttpIncomingMessage.withMaxBodySize(app, Option.some(limit))
      }
      if (kind === "multipart") {
        return HttpIncomingMessage.withMaxBodySize(
          Effect.provideService(app, HttpServerRequest.HttpServerRequest, new CheckedMultipartRequest(request)),
          Option.some(limit)
        )
      }
      return readBounded(NodeHttpServerRequest.toIncomingMessage(request), limit).pipe(
        Effect.matchEffect({
          onFailure: (error) => malformed(`The request body could not be read: ${error.message}`),
          onSuccess: Option.match({
            onNone: () => tooLarge(limit, true),
            onSome: (body) => {
              const checked = checkBody(kind, body)
              switch (checked._tag) {
                case "Malformed":
                  return malformed(checked.reason)
                case "Invalid":
                  return invalidText(checked.flawed)
                case "Served":
                  return Effect.provideService(
                    app,
                    HttpServerRequest.HttpServerRequest,
                    new BufferedRequest(request, body, checked.text, checked.parsed)
                  )
              }
            }
          })
        })
      )
    })
