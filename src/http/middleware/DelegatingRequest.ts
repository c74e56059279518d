/**
 * A server request that answers everything from the request it wraps, for a
 * middleware to replace only what it must (a body read once, multipart fields
 * checked) while handlers still see one `HttpServerRequest`.
 */
import { HttpIncomingMessage, HttpServerRequest } from "@effect/platform"
import { Inspectable } from "effect"

export abstract class DelegatingRequest extends Inspectable.Class implements HttpServerRequest.HttpServerRequest {
  readonly [HttpServerRequest.TypeId]: HttpServerRequest.TypeId = HttpServerRequest.TypeId
  readonly [HttpIncomingMessage.TypeId]: HttpIncomingMessage.TypeId = HttpIncomingMessage.TypeId

  constructor(readonly original: HttpServerRequest.HttpServerRequest) {
    super()
  }

  /** The same wrapper around another request (after `modify`). */
  protected abstract around(original: HttpServerRequest.HttpServerRequest): HttpServerRequest.HttpServerRequest

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
  get text() {
    return this.original.text
  }
  get json() {
    return this.original.json
  }
  get urlParamsBody() {
    return this.original.urlParamsBody
  }
  get arrayBuffer() {
    return this.original.arrayBuffer
  }
  get stream() {
    return this.original.stream
  }

  modify(options: Parameters<HttpServerRequest.HttpServerRequest["modify"]>[0]): HttpServerRequest.HttpServerRequest {
    return this.around(this.original.modify(options))
  }

  toJSON(): unknown {
    return this.original.toJSON()
  }
}
