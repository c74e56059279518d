/**
 * The OpenAPI document of the contract, as `/openapi.json`, `/docs` and
 * `parley openapi` give it: `OpenApi.fromApi`, with one repair. Effect
 * writes a payload union of n members as n-1 nested `anyOf` pairs (a node
 * patch's twelve kinds are eleven levels deep), which is the same schema but
 * lies past the depth at which the reference builds an example (its body
 * then reads "[Max Depth Exceeded]"). Each `anyOf` whose member is itself
 * nothing but an `anyOf` is flattened into one list; nothing else changes.
 */
import type { HttpApi, HttpApiGroup } from "@effect/platform"
import { OpenApi } from "@effect/platform"

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

const isBareAnyOf = (value: Json): value is { readonly anyOf: ReadonlyArray<Json> } =>
  typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 1 &&
  Array.isArray((value as { readonly anyOf?: unknown }).anyOf)

/** `value` with every nested bare `anyOf` spliced into its parent's `anyOf`. */
export const flattenAnyOf = (value: Json): Json => {
  if (Array.isArray(value)) return value.map(flattenAnyOf)
  if (typeof value !== "object" || value === null) return value
  const out: Record<string, Json> = {}
  for (const [key, inner] of Object.entries(value)) {
    if (key === "anyOf" && Array.isArray(inner)) {
      const members: Array<Json> = []
      const splice = (member: Json) => {
        if (isBareAnyOf(member)) member.anyOf.forEach(splice)
        else members.push(flattenAnyOf(member))
      }
      inner.forEach(splice)
      out[key] = members
    } else {
      out[key] = flattenAnyOf(inner)
    }
  }
  return out
}

/** The contract's OpenAPI document. */
export const apiDocument = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
): OpenApi.OpenAPISpec => flattenAnyOf(OpenApi.fromApi(api) as unknown as Json) as unknown as OpenApi.OpenAPISpec
