/**
 * The JSON Schema subset a tool's input schema may use, checked when the
 * tool is written (an unknown keyword is refused by name, so a rule the
 * author meant is never silently skipped):
 *
 * - `type` (a name or a list of names: string, number, integer, boolean, object, array, null);
 * - `properties`, `required`, `additionalProperties` (a boolean or a schema) for objects;
 * - `items` (one schema), `minItems`, `maxItems` for arrays;
 * - `minLength`, `maxLength` (in code points) and `pattern` for strings; a pattern runs on
 *   Parley's linear-time engine (`domain/patterns`), so one it cannot run is refused;
 * - `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` (numbers) for numbers;
 * - `enum`, `const` for any value;
 * - annotations, accepted and not enforced: `title`, `description`, `default`, `examples`,
 *   `format`, `$comment`, and `$schema` at the root.
 *
 * Schemas nest to at most 16 levels.
 */
import { Either } from "effect"
import type { FieldProblem } from "../FieldProblem.js"
import { compileUserPattern, type UserPattern } from "../patterns/UserPattern.js"

const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"])
const ANNOTATIONS = new Set(["title", "description", "default", "examples", "format", "$comment"])
const NUMBERS = new Set(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"])
const COUNTS = new Set(["minLength", "maxLength", "minItems", "maxItems"])
const MAX_DEPTH = 16

type Checker = (value: unknown, at: string, depth: number) => ReadonlyArray<FieldProblem>

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const problem = (field: string, message: string): ReadonlyArray<FieldProblem> => [{ field, message }]

/** The pattern of a schema, compiled (cached per source). */
const patterns = new Map<string, Either.Either<UserPattern, string>>()
export const compiledPattern = (source: string): Either.Either<UserPattern, string> => {
  const known = patterns.get(source)
  if (known !== undefined) return known
  const compiled = compileUserPattern(source)
  if (patterns.size >= 512) patterns.clear()
  patterns.set(source, compiled)
  return compiled
}

const keywordCheck = (keyword: string, value: unknown, at: string, depth: number, schema: Checker) => {
  const field = `${at}.${keyword}`
  if (ANNOTATIONS.has(keyword) || keyword === "enum" && Array.isArray(value) || keyword === "const") return []
  if (NUMBERS.has(keyword)) return typeof value === "number" ? [] : problem(field, `${keyword} must be a number`)
  if (COUNTS.has(keyword)) {
    return Number.isSafeInteger(value) && (value as number) >= 0
      ? []
      : problem(field, `${keyword} must be a whole number ≥ 0`)
  }
  switch (keyword) {
    case "type": {
      const names = Array.isArray(value) ? value : [value]
      const wrong = names.find((name) => typeof name !== "string" || !TYPES.has(name))
      return names.length > 0 && wrong === undefined
        ? []
        : problem(field, `type must name JSON types (${[...TYPES].join(", ")})`)
    }
    case "enum":
      return problem(field, "enum must be a list of values")
    case "required":
      return Array.isArray(value) && value.every((name) => typeof name === "string")
        ? []
        : problem(field, "required must be a list of property names")
    case "pattern":
      if (typeof value !== "string") return problem(field, "pattern must be a string")
      return Either.match(compiledPattern(value), {
        onLeft: (reason) => problem(field, `the pattern cannot be used: ${reason}`),
        onRight: () => []
      })
    case "properties":
      return isObject(value)
        ? Object.entries(value).flatMap(([name, property]) => schema(property, `${field}.${name}`, depth + 1))
        : problem(field, "properties must map names to schemas")
    case "items":
      return schema(value, field, depth + 1)
    case "additionalProperties":
      return typeof value === "boolean" ? [] : schema(value, field, depth + 1)
    default:
      return problem(field, `the keyword ${keyword} is not supported (see the input schema subset)`)
  }
}

const checkSchema: Checker = (value, at, depth) => {
  if (depth > MAX_DEPTH) return problem(at, `schemas nest at most ${MAX_DEPTH} levels`)
  if (!isObject(value)) return problem(at, "a schema must be an object")
  return Object.entries(value).flatMap(([keyword, keywordValue]) =>
    depth === 0 && keyword === "$schema" ? [] : keywordCheck(keyword, keywordValue, at, depth, checkSchema)
  )
}

/** What is wrong with a schema under the supported subset, each problem's field under `at` (empty when nothing). */
export const schemaProblems = (schema: unknown, at: string): ReadonlyArray<FieldProblem> => checkSchema(schema, at, 0)

/** What is wrong with a tool's input schema under the supported subset (empty when nothing). */
export const inputSchemaProblems = (schema: unknown): ReadonlyArray<FieldProblem> =>
  schemaProblems(schema, "inputSchema")
