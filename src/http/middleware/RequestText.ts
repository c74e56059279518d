/**
 * Text Parley cannot store is refused at the edge, on every route, before
 * routing, authentication or decoding see it: a NUL character or a lone
 * surrogate in a path segment, a query parameter or a header, or
 * percent-escapes that are not UTF-8, answer `400 InvalidText` naming the
 * field (`path.agent_id`, `query.q`, `header.user-agent`). Bodies are checked
 * where they are read (`RequestBody.ts`), with the same rules.
 *
 * Node's own parser already refuses raw NUL and non-ASCII bytes in the request
 * line and NUL in headers (a bare 400); the header check here keeps the rule
 * whatever the server in front.
 */
import type { Headers, HttpApp, HttpServerResponse } from "@effect/platform"
import { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { fieldStep, type FlawedField, flawOf, InvalidText } from "../../domain/StorableText.js"
import { jsonError } from "../JsonError.js"
import type { Route } from "../RouteTable.js"

const strictUtf8 = new TextDecoder("utf-8", { fatal: true })

const isHex = (code: number) =>
  (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66)

const escapeAt = (text: string, at: number) =>
  text.charCodeAt(at) === 0x25 && isHex(text.charCodeAt(at + 1)) && isHex(text.charCodeAt(at + 2))

/**
 * A URL component with its percent-escapes decoded, or `undefined` when the
 * escaped bytes are not UTF-8. A `%` not followed by two hex digits stays as it
 * is (as the platform's own parsing leaves it); `+` is a space in query
 * strings and forms.
 */
export const percentDecoded = (raw: string, plusIsSpace: boolean): string | undefined => {
  const text = plusIsSpace ? raw.replace(/\+/g, " ") : raw
  if (!text.includes("%")) return text
  let out = ""
  let at = 0
  while (at < text.length) {
    if (!escapeAt(text, at)) {
      out += text[at]
      at++
      continue
    }
    const bytes: Array<number> = []
    while (escapeAt(text, at)) {
      bytes.push(parseInt(text.slice(at + 1, at + 3), 16))
      at += 3
    }
    try {
      out += strictUtf8.decode(Uint8Array.from(bytes))
    } catch {
      return undefined
    }
  }
  return out
}

/** The flaw of a URL component, once decoded. */
const componentFlaw = (raw: string, plusIsSpace: boolean) => {
  const decoded = percentDecoded(raw, plusIsSpace)
  return decoded === undefined ? { flaw: "invalid-utf-8" as const, decoded } : { flaw: flawOf(decoded), decoded }
}

/**
 * The first flawed name or value of `a=1&b=2` (a query string or a form
 * body), as a field under `root`. A flawed name is shown still escaped.
 */
export const pairsFlaw = (text: string, root: string): FlawedField | undefined => {
  if (text === "") return undefined
  for (const pair of text.split("&")) {
    const equals = pair.indexOf("=")
    const rawKey = equals === -1 ? pair : pair.slice(0, equals)
    const key = componentFlaw(rawKey, true)
    if (key.flaw !== undefined) return { field: `${root}${fieldStep(rawKey)}`, flaw: key.flaw, inKey: true }
    if (equals === -1) continue
    const value = componentFlaw(pair.slice(equals + 1), true)
    if (value.flaw !== undefined) return { field: `${root}${fieldStep(key.decoded!)}`, flaw: value.flaw, inKey: false }
  }
  return undefined
}

/**
 * The name of the path parameter at segment `index` of `segments`, from the
 * routes whose template matches the path's other segments (the request's
 * method first); only asked when a segment is flawed.
 */
const parameterAt = (routes: ReadonlyArray<Route>, method: string, segments: ReadonlyArray<string>, index: number) => {
  const candidates = [...routes.filter((route) => route.method === method), ...routes]
  for (const route of candidates) {
    const template = route.path.split("/")
    if (template.length !== segments.length || !template[index]!.startsWith(":")) continue
    const matches = template.every((step, at) => at === index || step.startsWith(":") || step === segments[at])
    if (matches) return template[index]!.slice(1).replace(/\?$/, "")
  }
  return undefined
}

/** The first flawed path segment or query parameter of a request URL. */
export const urlFlaw = (routes: ReadonlyArray<Route>, method: string, url: string): FlawedField | undefined => {
  const question = url.indexOf("?")
  const path = question === -1 ? url : url.slice(0, question)
  const segments = path.split("/")
  for (let index = 0; index < segments.length; index++) {
    const { flaw } = componentFlaw(segments[index]!, false)
    if (flaw === undefined) continue
    const parameter = parameterAt(routes, method, segments, index)
    return { field: parameter === undefined ? "path" : `path${fieldStep(parameter)}`, flaw, inKey: false }
  }
  return question === -1 ? undefined : pairsFlaw(url.slice(question + 1), "query")
}

/** The first flawed header value (by lower-case name). */
export const headerFlaw = (headers: Headers.Headers): FlawedField | undefined => {
  for (const [name, value] of Object.entries(headers)) {
    const nameFlaw = flawOf(name)
    const flaw = nameFlaw ?? flawOf(value)
    if (flaw !== undefined) return { field: `header${fieldStep(name)}`, flaw, inKey: nameFlaw !== undefined }
  }
  return undefined
}

/** The typed 400 for a flawed field. */
export const invalidText = (flawed: FlawedField): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
  jsonError(InvalidText, InvalidText.of(flawed))

/** Refuse a request whose URL or headers hold text Parley cannot store. */
export const requestText =
  (routes: ReadonlyArray<Route>) =>
  <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R | HttpServerRequest.HttpServerRequest> =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const flawed = urlFlaw(routes, request.method, request.url) ?? headerFlaw(request.headers)
      return flawed === undefined ? app : invalidText(flawed)
    })
