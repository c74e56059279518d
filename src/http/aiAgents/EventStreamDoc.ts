/**
 * Documents the `?stream=true` form of a turn route. HttpApi has no streaming
 * success type, so the typed client uses the JSON form and the handler serves
 * the stream raw; this adds a `text/event-stream` entry beside the JSON one in
 * the 200 response, one `oneOf` branch per event (`event:` name, `data:` JSON).
 */
import type { HttpApiEndpoint } from "@effect/platform"
import { OpenApiJsonSchema } from "@effect/platform"
import type { Schema } from "effect"
import { transformOperation } from "../OperationTransform.js"

type Json = OpenApiJsonSchema.JsonSchema

const COMPONENTS = "#/components/schemas/"

/**
 * Replace each `$ref` by its definition, so the stream's schema stands alone
 * (its event schemas are not in the document's components). A recursive
 * definition (`JsonValue`) keeps its `$ref`: the JSON form of the same route
 * puts it in the components.
 */
const inline = (value: unknown, defs: Record<string, unknown>, open: ReadonlySet<string>): unknown => {
  if (Array.isArray(value)) return value.map((item) => inline(item, defs, open))
  if (value === null || typeof value !== "object") return value
  const ref = (value as { readonly $ref?: unknown }).$ref
  if (typeof ref === "string" && ref.startsWith(COMPONENTS)) {
    const name = ref.slice(COMPONENTS.length)
    if (open.has(name) || !(name in defs)) return value
    return inline(defs[name], defs, new Set([...open, name]))
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, inline(item, defs, open)]))
}

const eventName = (data: Json): string => {
  const type = (data as { readonly properties?: { readonly type?: { readonly enum?: ReadonlyArray<unknown> } } })
    .properties?.type?.enum?.[0]
  if (typeof type !== "string") throw new Error("an event schema needs a literal `type` field")
  return type
}

/** The `text/event-stream` media type of a union of event schemas, each with a literal `type`. */
const eventStreamMediaType = <A, I, R>(events: Schema.Schema<A, I, R>, description: string) => {
  const defs: Record<string, Json> = {}
  const root = inline(OpenApiJsonSchema.makeWithDefs(events, { defs }), defs, new Set()) as Json
  const members = "anyOf" in root ? (root.anyOf as ReadonlyArray<Json>) : [root]
  return {
    schema: {
      description,
      oneOf: members.map((data) => ({
        type: "object",
        title: eventName(data),
        required: ["event", "data"],
        properties: { event: { type: "string", enum: [eventName(data)] }, data }
      }))
    }
  }
}

/** Add the `text/event-stream` form (`?stream=true`) of an endpoint's 200 response to its OpenAPI operation. */
export const documentEventStream =
  <A, I, R>(events: Schema.Schema<A, I, R>, description: string) =>
  <E extends HttpApiEndpoint.HttpApiEndpoint.Any>(endpoint: E): E =>
    transformOperation((operation) => {
      const ok = operation.responses[200] ?? { description: "Success" }
      return {
        ...operation,
        responses: {
          ...operation.responses,
          200: {
            ...ok,
            content: { ...ok.content, "text/event-stream": eventStreamMediaType(events, description) }
          }
        }
      }
    })(endpoint)
