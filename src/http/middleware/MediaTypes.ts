/**
 * A route reads its body only in the media type its contract declares: JSON
 * unless the payload says otherwise (a provider's form post, a multipart
 * upload). Anything else is a `415 UnsupportedMediaType` naming what the
 * route accepts, before the body is read.
 *
 * This is also a defence against cross-site requests (ASVS 3.5.2): a page on
 * another site can make a browser send a form (`x-www-form-urlencoded`,
 * `multipart/form-data`, `text/plain`) without a CORS preflight, but not
 * `application/json`. Without this check the API would decode a form post to
 * `/v1/auth/login` like JSON, and another site could sign a visitor in to an
 * account of its choosing.
 */
import { HttpApi, HttpApiSchema, HttpMethod, HttpServerRequest } from "@effect/platform"
import type { HttpApiGroup, HttpApp } from "@effect/platform"
import { Effect, Option, type SchemaAST } from "effect"
import type * as FindMyWay from "find-my-way-ts"
import { UnsupportedMediaType } from "../../domain/HttpErrors.js"
import { jsonError } from "../JsonError.js"
import { routeMatcher } from "../RouteTable.js"

/** The media types (lower case, without parameters) a payload is read from; `*` accepts any. */
const acceptedOf = (ast: SchemaAST.AST): ReadonlyArray<string> => {
  // A payload of JSON or a multipart upload (imports) accepts both.
  if (ast._tag === "Union" && HttpApiSchema.getMultipart(ast) === undefined) {
    return [...new Set(ast.types.flatMap(acceptedOf))]
  }
  if (HttpApiSchema.getMultipart(ast) !== undefined || HttpApiSchema.getMultipartStream(ast) !== undefined) {
    return ["multipart/form-data"]
  }
  switch (HttpApiSchema.getEncoding(ast).kind) {
    case "Json":
      return ["application/json"]
    case "UrlParams":
      return ["application/x-www-form-urlencoded"]
    case "Text":
      return ["text/*"]
    case "Uint8Array":
      return ["*"]
  }
}

/** For a method and URL, the media types its route reads a body from, when the route has a payload. */
export const makeAcceptedMediaTypes = (api: HttpApi.HttpApi<string, HttpApiGroup.HttpApiGroup.Any, any, any>) => {
  const router = routeMatcher<ReadonlyArray<string>>()
  HttpApi.reflect(api as HttpApi.HttpApi.AnyWithProps, {
    onGroup() {},
    onEndpoint({ endpoint }) {
      if (!HttpMethod.hasBody(endpoint.method) || Option.isNone(endpoint.payloadSchema)) return
      router.on(
        endpoint.method,
        endpoint.path as FindMyWay.PathInput,
        acceptedOf(endpoint.payloadSchema.value.ast)
      )
    }
  })
  return (method: string, url: string): Option.Option<ReadonlyArray<string>> =>
    Option.fromNullable(router.find(method as HttpMethod.HttpMethod, url.split("?")[0]!)?.handler)
}

const matches = (contentType: string, accepted: ReadonlyArray<string>) =>
  accepted.some((type) =>
    type === "*" ||
    (type.endsWith("/*") ? contentType.startsWith(type.slice(0, -1)) : contentType === type)
  )

/** Whether a request carries a body at all (a declared length above zero, or a chunked one). */
const hasBody = (request: HttpServerRequest.HttpServerRequest) =>
  Number(request.headers["content-length"] ?? "0") > 0 || request.headers["transfer-encoding"] !== undefined

export const mediaTypes =
  (acceptedFor: (method: string, url: string) => Option.Option<ReadonlyArray<string>>) =>
  <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R | HttpServerRequest.HttpServerRequest> =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      if (!HttpMethod.hasBody(request.method) || !hasBody(request)) return app
      const accepted = acceptedFor(request.method, request.url)
      if (Option.isNone(accepted)) return app
      const header = request.headers["content-type"]
      // A body without a content type is read as JSON, as the API does.
      const contentType = header === undefined ? "application/json" : header.split(";")[0]!.trim().toLowerCase()
      if (matches(contentType, accepted.value)) return app
      return jsonError(
        UnsupportedMediaType,
        new UnsupportedMediaType({
          contentType: header ?? "",
          message: `This route reads ${accepted.value.join(" or ")} bodies, not ${header ?? "this one"}`
        })
      )
    })
