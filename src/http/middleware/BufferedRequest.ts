/**
 * A server request whose body was already read into memory: every body
 * accessor answers from the buffer, everything else is the original request.
 * It lets the body middleware bound and check a body once, before routing,
 * and gives signature checks the exact bytes that were sent.
 */
import { HttpIncomingMessage, HttpServerError, HttpServerRequest, UrlParams } from "@effect/platform"
import { Effect, Inspectable, Stream } from "effect"

export class BufferedRequest extends Inspectable.Class implements HttpServerRequest.HttpServerRequest {
  readonly [HttpServerRequest.TypeId]: HttpServerRequest.TypeId = HttpServerRequest.TypeId
  readonly [HttpIncomingMessage.TypeId]: HttpIncomingMessage.TypeId = HttpIncomingMessage.TypeId

  constructor(readonly original: HttpServerRequest.HttpServerRequest, readonly body: Uint8Array) {
    super()
  }

  get source() {
    return this.original.source
  }
  get url() {
    return this.original.url
  }
  get originalUrl() {
    return this.original.originalUrl
  }
  get method() {
    return this.original.method
  }
  get cookies() {
    return this.original.cookies
  }
  get headers() {
    return this.original.headers
  }
  get remoteAddress() {
    return this.original.remoteAddress
  }
  get multipart() {
    return this.original.multipart
  }
  get multipartStream() {
    return this.original.multipartStream
  }
  get upgrade() {
    return this.original.upgrade
  }

  modify(options: Parameters<HttpServerRequest.HttpServerRequest["modify"]>[0]): HttpServerRequest.HttpServerRequest {
    return new BufferedRequest(this.original.modify(options), this.body)
  }

  private decodeError(cause: unknown): HttpServerError.RequestError {
    return new HttpServerError.RequestError({ request: this, reason: "Decode", cause })
  }

  get text(): Effect.Effect<string> {
    return Effect.succeed(new TextDecoder().decode(this.body))
  }
  get json(): Effect.Effect<unknown, HttpServerError.RequestError> {
    return Effect.flatMap(
      this.text,
      (text) =>
        Effect.try({
          try: () => (text === "" ? null : JSON.parse(text)) as unknown,
          catch: (cause) => this.decodeError(cause)
        })
    )
  }
  get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, HttpServerError.RequestError> {
    return Effect.flatMap(
      this.text,
      (text) =>
        Effect.try({
          try: () => UrlParams.fromInput(new URLSearchParams(text)),
          catch: (cause) => this.decodeError(cause)
        })
    )
  }
  get arrayBuffer() {
    return Effect.succeed(this.body.slice().buffer as ArrayBuffer)
  }
  get stream() {
    return Stream.succeed(this.body)
  }

  toJSON(): unknown {
    return this.original.toJSON()
  }
}
