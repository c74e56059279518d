/**
 * The routes of the contract as the fuzz suite sees them, read from the
 * OpenAPI document a running node serves: method, path template, parameters,
 * the body's schema and media types, and who may call it (a user, an embed
 * token, anyone, or a scheme of its own). A route added to the contract is
 * fuzzed without touching the suite.
 */

/** A JSON Schema (as the document has it; references are resolved on demand). */
export type JsonSchema = { readonly [keyword: string]: any }

/** One parameter of an operation. */
export interface Parameter {
  readonly name: string
  readonly in: "path" | "query" | "header" | "cookie"
  readonly required: boolean
  readonly schema: JsonSchema
}

/** Who an operation admits, from its security requirements. */
export type Access = "user" | "embed" | "public" | "other"

/** One operation of the contract. */
export interface Operation {
  /** `GET /v1/agents/{agent_id}`: how failures name it. */
  readonly name: string
  readonly method: string
  readonly path: string
  readonly parameters: ReadonlyArray<Parameter>
  /** The JSON body's schema, when the operation takes JSON. */
  readonly jsonBody: JsonSchema | undefined
  /** Every media type the body may have. */
  readonly bodyTypes: ReadonlyArray<string>
  readonly access: Access
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const

const accessOf = (security: ReadonlyArray<Record<string, unknown>>): Access => {
  const schemes = new Set(security.flatMap((requirement) => Object.keys(requirement)))
  if (schemes.size === 0) return "public"
  if (schemes.has("bearer") || schemes.has("cookie")) return "user"
  if (schemes.has("embedToken")) return "embed"
  return "other"
}

/** Every operation of an OpenAPI document. */
export const operationsOf = (document: JsonSchema): ReadonlyArray<Operation> =>
  Object.entries(document["paths"] as Record<string, Record<string, JsonSchema>>).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method] !== undefined).map((method): Operation => {
      const operation = item[method]!
      const content = (operation["requestBody"]?.["content"] ?? {}) as Record<string, { schema: JsonSchema }>
      return {
        name: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        parameters: ((operation["parameters"] ?? []) as ReadonlyArray<JsonSchema>).map((parameter) => ({
          name: parameter["name"],
          in: parameter["in"],
          required: parameter["required"] === true,
          schema: parameter["schema"] ?? {}
        })),
        jsonBody: content["application/json"]?.schema,
        bodyTypes: Object.keys(content),
        access: accessOf(operation["security"] ?? document["security"] ?? [])
      }
    })
  )

/** Follow `$ref`s (and single-member `allOf`s) to the schema that says something. */
export const resolverOf = (document: JsonSchema) => {
  const components = (document["components"]?.["schemas"] ?? {}) as Record<string, JsonSchema>
  const resolve = (schema: JsonSchema | undefined, seen = 0): JsonSchema => {
    if (schema === undefined || seen > 50) return {}
    const ref = schema["$ref"]
    if (typeof ref === "string") {
      const target = components[ref.replace("#/components/schemas/", "")]
      return resolve({ ...target, ...withoutRef(schema) }, seen + 1)
    }
    const allOf = schema["allOf"] as ReadonlyArray<JsonSchema> | undefined
    if (allOf !== undefined) {
      const { allOf: _, ...rest } = schema
      return allOf.reduce<JsonSchema>((merged, part) => mergeSchemas(merged, resolve(part, seen + 1)), rest)
    }
    return schema
  }
  return resolve
}

const withoutRef = (schema: JsonSchema): JsonSchema => {
  const { $ref: _, ...rest } = schema
  return rest
}

const mergeSchemas = (a: JsonSchema, b: JsonSchema): JsonSchema => ({
  ...a,
  ...b,
  ...(a["properties"] !== undefined || b["properties"] !== undefined
    ? { properties: { ...a["properties"], ...b["properties"] } }
    : {}),
  ...(a["required"] !== undefined || b["required"] !== undefined
    ? { required: [...(a["required"] ?? []), ...(b["required"] ?? [])] }
    : {})
})

/** The leaves of nested `anyOf`/`oneOf`: Effect writes a union of n members as n − 1 nested pairs. */
export const branchesOf = (
  schema: JsonSchema,
  resolve: (schema: JsonSchema) => JsonSchema
): ReadonlyArray<JsonSchema> => {
  const members = (schema["anyOf"] ?? schema["oneOf"]) as ReadonlyArray<JsonSchema> | undefined
  if (members === undefined) return [schema]
  return members.flatMap((member) => branchesOf(resolve(member), resolve))
}
