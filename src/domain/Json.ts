import { Schema } from "effect"

/** Any JSON value. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | ReadonlyArray<JsonValue>
  | { readonly [key: string]: JsonValue }

/**
 * Any JSON value: a run's input and output, a variable's value, an event's
 * data. Genuinely free-form (the workflow's expressions give it meaning), but
 * JSON: a missing value is not one, and neither is `undefined`.
 */
export const JsonValue: Schema.Schema<JsonValue> = Schema.Union(
  Schema.Null,
  Schema.Boolean,
  Schema.Number.pipe(Schema.finite()),
  Schema.String,
  Schema.Array(Schema.suspend(() => JsonValue)),
  Schema.Record({ key: Schema.String, value: Schema.suspend(() => JsonValue) })
).annotations({ identifier: "JsonValue", description: "Any JSON value" })

/** A JSON object with free-form values, such as a set of named variables. */
export const JsonObject = Schema.Record({ key: Schema.String, value: JsonValue }).annotations({
  identifier: "JsonObject",
  description: "A JSON object"
})
export type JsonObject = typeof JsonObject.Type

/** A JSON Schema document (draft 2020-12) that a structured value must satisfy. */
export const JsonSchemaDocument = Schema.Record({ key: Schema.String, value: JsonValue }).annotations({
  identifier: "JsonSchemaDocument",
  description: "A JSON Schema (draft 2020-12) object"
})
export type JsonSchemaDocument = typeof JsonSchemaDocument.Type

/** A text's JSON when it parses as JSON, else the text itself: how a tool's answer body is read. */
export const jsonOrText = (text: string): JsonValue => {
  try {
    return JSON.parse(text) as JsonValue
  } catch {
    return text
  }
}
