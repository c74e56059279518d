/**
 * A server request whose body was already read into memory: every body
 * accessor answers from the buffer, everything else is the original request.
 * It lets the body middleware bound and check a body once, before routing,
 * and gives signature checks the exact bytes that were sent. A JSON body
 * parsed by that check is served as parsed, not parsed again.
 */
import { HttpServerError, type HttpServerRequest, UrlParams } from "@effect/platform"
import { Effect, Option, Stream } from "effect"
import { DelegatingRequest } from "./DelegatingRequest.js"

export class BufferedRequest extends DelegatingRequest {
  constructor(
    original: HttpServerRequest.HttpServerRequest,
    readonly body: Uint8Array,
    /** The body as text, decoded once (strictly, by the body middleware). */
    readonly decoded: string = new TextDecoder().decode(body),
    /** The body's JSON value, when it was parsed already. */
    readonly parsed: Option.Option<unknown> = Option.none()
  ) {
    super(original)
  }

  protected around(original: HttpServerRequest.HttpServerRequest): HttpServerRequest.HttpServerRequest {
    return new BufferedRequest(original, this.body, this.decoded, this.parsed)
  }

  private decodeError(cause: unknown): HttpServerError.RequestError {
    return new HttpServerError.RequestError({ request: this, reason: "Decode", cause })
  }

  override get text(): Effect.Effect<string> {
    return Effect.succeed(this.decoded)
  }
  override get json(): Effect.Effect<unknown, HttpServerError.RequestError> {
    if (Option.isSome(this.parsed)) return Effect.succeed(this.parsed.value)
    return Effect.try({
      try: () => (this.decoded === "" ? null : JSON.parse(this.decoded)) as unknown,
      catch: (cause) => this.decodeError(cause)
    })
  }
  override get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, HttpServerError.RequestError> {
    return Effect.try({
      try: () => UrlParams.fromInput(new URLSearchParams(this.decoded)),
      catch: (cause) => this.decodeError(cause)
    })
  }
  override get arrayBuffer() {
    return Effect.succeed(this.body.slice().buffer as ArrayBuffer)
  }
  override get stream() {
    return Stream.succeed(this.body)
  }
}
