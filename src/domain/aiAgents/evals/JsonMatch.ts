/**
 * Comparing a tool call's arguments with an eval's expected JSON. `jsonEquals`
 * is deep equality (object keys in any order, arrays element by element).
 * `jsonSubset` is the `subset` matcher, with the semantics of Jest's
 * `toMatchObject`: every property of an expected object must be present in
 * the actual one and match in turn as a subset (objects at any depth may have
 * more properties); arrays must have the same length and match element by
 * element under the same rule; anything else must be equal.
 */
import type { JsonValue } from "../../Json.js"

const isObject = (value: JsonValue): value is { readonly [key: string]: JsonValue } =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const compare = (actual: JsonValue, expected: JsonValue, subset: boolean): boolean => {
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length &&
      expected.every((item, index) => compare(actual[index]!, item, subset))
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return false
    const keys = Object.keys(expected)
    if (!subset && Object.keys(actual).length !== keys.length) return false
    return keys.every((key) => Object.hasOwn(actual, key) && compare(actual[key]!, expected[key]!, subset))
  }
  return actual === expected
}

/** Whether two JSON values are equal. */
export const jsonEquals = (actual: JsonValue, expected: JsonValue): boolean => compare(actual, expected, false)

/** Whether `actual` matches `expected` as a subset (see the file's comment). */
export const jsonSubset = (actual: JsonValue, expected: JsonValue): boolean => compare(actual, expected, true)
