/**
 * Request bodies are bounded and, when JSON, well-formed before anything else
 * looks at the request: 1 MiB by default, 10 MiB for imports and uploads (both
 * configurable). A declared `Content-Length` over the limit is refused before
 * any byte is read; a chunked body is refused when it passes the limit; a JSON
 * body that does not parse is a 400 even on a route whose caller is not yet known.
 * Textual bodies (JSON, forms, text) are read once here and served from memory.
 */
import { HttpIncomingMessage, HttpMethod, HttpServerRequest } from "@effect/platform"
import type { HttpApp } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect, Option } from "effect"
import type { IncomingMessage } from "node:http"
import { MalformedBody, PayloadTooLarge } from "../../domain/HttpErrors.js"
import { jsonError } from "../JsonError.js"
import { BufferedRequest } from "./BufferedRequest.js"

const uploadPaths = [
  /^\/v1\/imports\//,
  /^\/v1\/workspace-models\/datasets$/,
  /^\/v1\/ai-agents\/[^/]+\/knowledge(\/|$)/
]

/** The body limit of a path, given the general and the upload limits. */
export const bodyLimitFor = (limits: { readonly body: number; readonly upload: number }) => (path: string): number =>
  uploadPaths.some((pattern) => pattern.test(path.split("?")[0]!)) ? limits.upload : limits.body

type BodyKind = "json" | "text" | "other"

/** How the API will read the body: as JSON when no content type is given. */
const bodyKind = (request: HttpServerRequest.HttpServerRequest): BodyKind => {
  const contentType = request.headers["content-type"]?.toLowerCase()
  if (contentType === undefined || contentType.includes("json")) return "json"
  if (contentType.startsWith("text/") || contentType.includes("x-www-form-urlencoded")) return "text"
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

const isWellFormedJson = (body: Uint8Array): Option.Option<string> => {
  const text = new TextDecoder().decode(body)
  if (text.trim() === "") return Option.none()
  try {
    JSON.parse(text)
    return Option.none()
  } catch (error) {
    return Option.some((error as Error).message)
  }
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
      return readBounded(NodeHttpServerRequest.toIncomingMessage(request), limit).pipe(
        Effect.matchEffect({
          onFailure: (error) => malformed(`The request body could not be read: ${error.message}`),
          onSuccess: Option.match({
            onNone: () => tooLarge(limit, true),
            onSome: (body) =>
              Option.match(kind === "json" ? isWellFormedJson(body) : Option.none(), {
                onSome: (reason) => malformed(`Malformed JSON body: ${reason}`),
                onNone: () =>
                  Effect.provideService(app, HttpServerRequest.HttpServerRequest, new BufferedRequest(request, body))
              })
          })
        })
      )
    })
