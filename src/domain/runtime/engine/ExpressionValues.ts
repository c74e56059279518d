/**
 * What JSONata answers, read as flow values. A condition holds when the
 * result is true by JSONata's own `$boolean` rules (a non-empty string, a
 * non-zero number, an array with a true member, a non-empty object); a
 * variable receives the result as JSON: no value becomes `null` at the top
 * and is left out of objects, functions are no value, non-finite numbers
 * become `null`, and JSONata's sequences become plain arrays.
 */
import type { JsonValue } from "../../Json.js"

const isFunction = (value: object): boolean =>
  typeof value === "function" || "_jsonata_lambda" in value || "_jsonata_function" in value

/** JSONata's `$boolean` of a result. */
export const isTruthy = (value: unknown): boolean => {
  switch (typeof value) {
    case "boolean":
      return value
    case "number":
      return value !== 0 && !Number.isNaN(value)
    case "string":
      return value.length > 0
    case "object":
      if (value === null || isFunction(value)) return false
      if (Array.isArray(value)) return value.some(isTruthy)
      return Object.keys(value).length > 0
    default:
      return false
  }
}

/** A result as a JSON value; `undefined` when there is none. */
export const toJson = (value: unknown): JsonValue | undefined => {
  switch (typeof value) {
    case "boolean":
    case "string":
      return value
    case "number":
      return Number.isFinite(value) ? (Object.is(value, -0) ? 0 : value) : null
    case "object": {
      if (value === null) return null
      if (isFunction(value)) return undefined
      if (Array.isArray(value)) return value.map((item) => toJson(item) ?? null)
      const record: Record<string, JsonValue> = {}
      for (const [key, member] of Object.entries(value)) {
        const json = toJson(member)
        if (json !== undefined) record[key] = json
      }
      return record
    }
    default:
      return undefined
  }
}
