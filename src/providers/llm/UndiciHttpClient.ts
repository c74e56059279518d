/**
 * A lean `HttpClient` over an undici dispatcher, for the model providers.
 * @effect/platform's own undici client wraps each request in a span, an
 * uninterruptible region, a response wrapper and a finalization registry:
 * about half a millisecond of CPU a call on this machine, half of what Parley
 * may add to a model call (bench/providers). This one sends the request in one
 * interruptible step (interruption aborts it), gives the answer's head a
 * time-out (undici's `headersTimeout`, which the caller's connection sets),
 * and reads the body once: whole (`text`, `json`, `arrayBuffer`) or as a
 * stream; a body left unread is dropped when the response is collected, so
 * its connection goes back to the pool. Request bodies are bytes or text
 * (what the providers send); a stream or form body is refused as an encoding
 * error.
 */
import { Headers, HttpClient, HttpClientError, type HttpClientRequest, HttpClientResponse } from "@effect/platform"
import { Cookies, UrlParams } from "@effect/platform"
import * as NodeStream from "@effect/platform-node/NodeStream"
import type { Dispatcher } from "@effect/platform-node/Undici"
import * as IncomingMessage from "@effect/platform/HttpIncomingMessage"
import { Effect, Inspectable, Option, Stream } from "effect"

/** Drops a body nobody read, so its connection is not held. */
const unread = new FinalizationRegistry<Dispatcher.ResponseData["body"]>((body) => {
  if (!body.destroyed) body.destroy()
})

class UndiciResponse extends Inspectable.Class implements HttpClientResponse.HttpClientResponse {
  readonly [IncomingMessage.TypeId]: IncomingMessage.TypeId = IncomingMessage.TypeId
  readonly [HttpClientResponse.TypeId]: HttpClientResponse.TypeId = HttpClientResponse.TypeId
  private textBody: Promise<string> | undefined

  constructor(
    readonly request: HttpClientRequest.HttpClientRequest,
    private readonly source: Dispatcher.ResponseData
  ) {
    super()
    source.body.on("error", () => {})
    unread.register(this, source.body, this)
  }

  get status() {
    return this.source.statusCode
  }
  get headers() {
    return Headers.fromInput(this.source.headers as Record<string, string | ReadonlyArray<string> | undefined>)
  }
  get cookies() {
    const header = this.source.headers["set-cookie"]
    return header === undefined ? Cookies.empty : Cookies.fromSetCookie(Array.isArray(header) ? header : [header])
  }
  get remoteAddress() {
    return Option.none()
  }
  private decodeError(cause: unknown): HttpClientError.ResponseError {
    return new HttpClientError.ResponseError({ request: this.request, response: this, reason: "Decode", cause })
  }
  /** Reads the body once; interrupting the read drops the body (and its connection). */
  private read<A>(read: (body: Dispatcher.ResponseData["body"]) => Promise<A>) {
    return Effect.async<A, HttpClientError.ResponseError>((resume) => {
      unread.unregister(this)
      const body = this.source.body
      read(body).then(
        (value) => resume(Effect.succeed(value)),
        (cause) => resume(Effect.fail(this.decodeError(cause)))
      )
      return Effect.sync(() => body.destroy())
    })
  }
  get text(): Effect.Effect<string, HttpClientError.ResponseError> {
    return this.read((body) => this.textBody ??= body.text())
  }
  get json(): Effect.Effect<unknown, HttpClientError.ResponseError> {
    return Effect.flatMap(this.text, (text) =>
      Effect.try({
        try: (): unknown => text === "" ? null : JSON.parse(text),
        catch: (cause) => this.decodeError(cause)
      }))
  }
  get arrayBuffer(): Effect.Effect<ArrayBuffer, HttpClientError.ResponseError> {
    return this.read((body) => body.arrayBuffer())
  }
  get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, HttpClientError.ResponseError> {
    return Effect.flatMap(
      this.text,
      (text) =>
        Effect.try({
          try: () => UrlParams.fromInput(new URLSearchParams(text)),
          catch: (cause) => this.decodeError(cause)
        })
    )
  }
  get formData(): Effect.Effect<FormData, HttpClientError.ResponseError> {
    return Effect.fail(this.decodeError(new Error("form bodies are not read by the providers' client")))
  }
  get stream(): Stream.Stream<Uint8Array, HttpClientError.ResponseError> {
    return Stream.suspend(() => {
      unread.unregister(this)
      return NodeStream.fromReadable<HttpClientError.ResponseError>(
        () => this.source.body,
        (cause) => this.decodeError(cause)
      )
    })
  }
  toJSON(): unknown {
    return { _id: "@effect/platform/HttpClientResponse", request: this.request.toJSON(), status: this.status }
  }
}

const bodyOf = (request: HttpClientRequest.HttpClientRequest): string | Uint8Array | null | undefined => {
  switch (request.body._tag) {
    case "Empty":
      return null
    case "Uint8Array":
      return request.body.body
    case "Raw":
      return typeof request.body.body === "string" || request.body.body instanceof Uint8Array
        ? request.body.body
        : undefined
    default:
      return undefined
  }
}

/**
 * The client over `dispatcher`; `headersTimeoutMs` bounds the wait for the
 * answer's head, and `onTimeout` makes the error a request that ran out of
 * it fails with.
 */
export const makeUndiciHttpClient = (
  dispatcher: Dispatcher,
  headersTimeoutMs: number,
  onTimeout: (request: HttpClientRequest.HttpClientRequest) => HttpClientError.RequestError
): HttpClient.HttpClient =>
  HttpClient.makeWith<never, never, HttpClientError.HttpClientError, never>(
    (effect) =>
      Effect.flatMap(effect, (request) => {
        const url = UrlParams.makeUrl(request.url, request.urlParams, request.hash)
        if (url._tag === "Left") {
          return Effect.fail(new HttpClientError.RequestError({ request, reason: "InvalidUrl", cause: url.left }))
        }
        const body = bodyOf(request)
        if (body === undefined) {
          return Effect.fail(
            new HttpClientError.RequestError({ request, reason: "Encode", description: "only byte or text bodies" })
          )
        }
        return Effect.async<HttpClientResponse.HttpClientResponse, HttpClientError.RequestError>((resume, signal) => {
          dispatcher.request({
            signal,
            method: request.method,
            headers: request.headers,
            origin: url.right.origin,
            path: url.right.pathname + url.right.search,
            body,
            headersTimeout: headersTimeoutMs,
            bodyTimeout: 0
          }).then(
            (source) => resume(Effect.succeed(new UndiciResponse(request, source))),
            (cause: { readonly code?: string }) =>
              resume(Effect.fail(
                cause?.code === "UND_ERR_HEADERS_TIMEOUT"
                  ? onTimeout(request)
                  : new HttpClientError.RequestError({ request, reason: "Transport", cause })
              ))
          )
        })
      }),
    Effect.succeed
  )
