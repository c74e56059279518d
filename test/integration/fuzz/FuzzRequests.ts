/**
 * One fuzzed request for an operation and a caller: real ids (or values of
 * their schema) in the path, query parameters and headers of their schemas,
 * a body generated from its JSON Schema, and then bad input almost everywhere:
 * odd path segments, repeated, huge and malformed query parameters, odd
 * headers and client addresses, and a mutated body (see `Mutations.ts`).
 * `valid: true` builds the unmutated request (used to ask a route whether it
 * is built at all).
 */
import { ODD_FORWARDED_FOR, ODD_HEADER_VALUES, ODD_PATH_SEGMENTS, ODD_QUERY_VALUES } from "./Adversarial.js"
import type { Dice } from "./Dice.js"
import { badJsonBody, otherBody } from "./Mutations.js"
import type { Operation } from "./OpenApiRoutes.js"
import type { RawRequest } from "./RawHttp.js"
import { type ValueContext, valueOf } from "./SchemaValues.js"
import type { Caller } from "./World.js"

/** A request to send, and every bad thing in it (for the failure message). */
export interface FuzzRequest extends RawRequest {
  readonly mutations: ReadonlyArray<string>
}

/** Where a request's valid values come from. */
export interface RequestContext extends ValueContext {
  /** A real id for a path parameter of this name in this path template. */
  readonly knownInPath: (name: string, path: string) => string | undefined
}

const asText = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value) ?? "")

/** Percent-encode text for a URL; a lone surrogate (which `encodeURIComponent` refuses) goes as its WTF-8 bytes. */
const encode = (text: string): string =>
  Array.from(text, (char) => {
    const unit = char.charCodeAt(0)
    if (char.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
      return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`).join("")
    }
    return encodeURIComponent(char)
  }).join("")

/** A request for `operation` as `caller`: bad in one or more places unless `valid`. */
export const fuzzRequest = (
  dice: Dice,
  operation: Operation,
  caller: Caller,
  input: RequestContext,
  options: { readonly valid: boolean } = { valid: false }
): FuzzRequest => {
  // Some cases are valid in shape with plain text, so that their hostile patterns reach the services; a probe
  // (`valid`) is valid in every way it can be.
  const shapeOnly = !options.valid && dice.chance(0.15)
  const context: RequestContext = options.valid
    ? { ...input, plain: true, hostilePatterns: false }
    : shapeOnly
    ? { ...input, plain: true }
    : input
  const mutations: Array<string> = shapeOnly ? ["valid shape"] : []
  const bad = (p: number) => !options.valid && !shapeOnly && dice.chance(p)

  // The path: each parameter a real id or a value of its schema; sometimes one of them odd.
  const pathParameters = operation.parameters.filter((parameter) => parameter.in === "path")
  const oddParameter = pathParameters.length > 0 && bad(0.3) ? dice.pick(pathParameters).name : undefined
  let target = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (name === oddParameter) {
      const segment = dice.pick(ODD_PATH_SEGMENTS)
      mutations.push(`path {${name}} = ${segment.slice(0, 60)}`)
      return segment
    }
    const parameter = pathParameters.find((candidate) => candidate.name === name)
    const value = context.knownInPath(name, operation.path) ??
      asText(valueOf(dice, parameter?.schema ?? {}, context, name))
    return encode(value)
  })
  if (bad(0.04)) {
    const suffix = dice.pick(["/", "//", "/..", "/%2e%2e/x", ";x", "%00", "/x".repeat(200)])
    mutations.push(`path suffix ${suffix.slice(0, 40)}`)
    target += suffix
  }

  // The query: required parameters, optional ones half the time; sometimes repeated, odd, unknown or huge.
  const query: Array<string> = []
  for (const parameter of operation.parameters.filter((parameter) => parameter.in === "query")) {
    if (!parameter.required && !dice.chance(0.5)) continue
    const value = context.known(parameter.name) ?? asText(valueOf(dice, parameter.schema, context, parameter.name))
    query.push(`${encode(parameter.name)}=${encode(value)}`)
  }
  if (bad(0.35)) {
    const names = operation.parameters.filter((parameter) => parameter.in === "query").map((parameter) =>
      parameter.name
    )
    const name = encode(
      names.length > 0 && dice.chance(0.7) ? dice.pick(names) : dice.pick(["x", "__proto__", "q[]", "a.b"])
    )
    switch (dice.int(0, 3)) {
      case 0:
        query.push(`${name}=1`, `${name}=2`, `${name}=`)
        mutations.push(`query ${name} repeated`)
        break
      case 1: {
        const value = dice.pick(ODD_QUERY_VALUES)
        query.push(`${name}=${value}`)
        mutations.push(`query ${name}=${value.slice(0, 60)}`)
        break
      }
      case 2:
        query.push(...Array.from({ length: dice.pick([300, 3_000]) }, (_, i) => `p${i}=${i}`))
        mutations.push("query with thousands of parameters")
        break
      default:
        query.push(dice.pick(["&&&", "=", "%", "a=%zz", "=%00", `${name}`]))
        mutations.push("malformed query")
    }
  }
  if (query.length > 0) target += `?${query.join("&")}`

  // Headers: the caller's credentials and address, the operation's header parameters; sometimes odd ones.
  const headers: Record<string, string> = { ...caller.headers(), "x-forwarded-for": caller.address }
  if (bad(0.08)) {
    headers["x-forwarded-for"] = dice.pick(ODD_FORWARDED_FOR)
    mutations.push(`x-forwarded-for ${headers["x-forwarded-for"].slice(0, 40)}`)
  }
  const headerParameters = operation.parameters.filter((parameter) => parameter.in === "header")
  for (const parameter of headerParameters) {
    const name = parameter.name.toLowerCase()
    if (name in headers || !(parameter.required || dice.chance(0.5))) continue
    headers[name] = name === "idempotency-key"
      ? dice.uuid()
      : asText(valueOf(dice, parameter.schema, context, parameter.name))
  }
  if (headerParameters.length > 0 && bad(0.15)) {
    const name = dice.pick(headerParameters).name.toLowerCase()
    headers[name] = dice.pick(ODD_HEADER_VALUES)
    mutations.push(`header ${name}: ${headers[name]!.slice(0, 40)}`)
  }
  if (operation.access === "embed" && bad(0.1)) {
    headers["origin"] = dice.pick(["null", "https://evil.example", "x".repeat(3_000), "http://[::1]", ""])
    mutations.push(`origin ${headers["origin"].slice(0, 40)}`)
  }

  // The body.
  let body: Uint8Array | undefined
  if (operation.jsonBody !== undefined) {
    const value = valueOf(dice, operation.jsonBody, context, "")
    const wire = options.valid || shapeOnly
      ? { bytes: new TextEncoder().encode(JSON.stringify(value)), contentType: "application/json", mutations: [] }
      : badJsonBody(dice, value)
    body = wire.bytes
    headers["content-type"] = wire.contentType
    mutations.push(...wire.mutations)
  } else if (operation.bodyTypes.length > 0) {
    const wire = otherBody(dice, dice.pick(operation.bodyTypes))
    body = wire.bytes
    headers["content-type"] = wire.contentType
    mutations.push(...wire.mutations)
  } else if (operation.method !== "GET" && bad(0.1)) {
    body = new TextEncoder().encode("{\"unexpected\":true}")
    headers["content-type"] = "application/json"
    mutations.push("a body where none is taken")
  }
  if (headers["content-type"] === "") delete headers["content-type"]
  return { method: operation.method, target, headers, body, mutations }
}
