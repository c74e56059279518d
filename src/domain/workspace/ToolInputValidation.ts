/**
 * Checks a tool call's input against the tool's input schema (the subset of
 * `ToolInputSchemaRules`, which a stored schema already satisfies). Each
 * violation carries the JSON pointer of the value it concerns. Strings must
 * be well-formed Unicode (no lone surrogate) wherever they are, because the
 * request built from them must be.
 */
import { Either } from "effect"
import { MAX_MATCH_WORK } from "../patterns/UserPattern.js"
import { compiledPattern } from "./ToolInputSchemaRules.js"

/** One violation, at the JSON pointer of the value it concerns. */
export interface InputProblem {
  readonly pointer: string
  readonly message: string
}

type Schema = Readonly<Record<string, unknown>>

const MAX_PROBLEMS = 50
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

const typeOf = (value: unknown): string =>
  value === null
    ? "null"
    : Array.isArray(value)
    ? "array"
    : typeof value === "number" && Number.isInteger(value)
    ? "integer"
    : typeof value

const typeMatches = (name: string, value: unknown): boolean => {
  const actual = typeOf(value)
  return actual === name || (name === "number" && actual === "integer")
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

const escapePointer = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1")

const codePoints = (text: string): number => {
  let count = 0
  for (const _ of text) count++
  return count
}

const stringProblems = (schema: Schema, value: string, pointer: string, out: Array<InputProblem>) => {
  if (LONE_SURROGATE.test(value)) out.push({ pointer, message: "the text is not valid Unicode (a lone surrogate)" })
  const length = typeof schema.minLength === "number" || typeof schema.maxLength === "number" ? codePoints(value) : 0
  if (typeof schema.minLength === "number" && length < schema.minLength) {
    out.push({ pointer, message: `must be at least ${schema.minLength} characters` })
  }
  if (typeof schema.maxLength === "number" && length > schema.maxLength) {
    out.push({ pointer, message: `must be at most ${schema.maxLength} characters` })
  }
  if (typeof schema.pattern === "string") {
    const pattern = compiledPattern(schema.pattern)
    if (Either.isRight(pattern)) {
      if (pattern.right.workOn(value) > MAX_MATCH_WORK) {
        out.push({ pointer, message: "is too long to check against the pattern" })
      } else if (pattern.right.search(value, 0) === undefined) {
        out.push({ pointer, message: `must match the pattern ${schema.pattern}` })
      }
    }
  }
}

const numberProblems = (schema: Schema, value: number, pointer: string, out: Array<InputProblem>) => {
  const bound = (keyword: string, fails: (limit: number) => boolean, words: string) => {
    const limit = schema[keyword]
    if (typeof limit === "number" && fails(limit)) out.push({ pointer, message: `must be ${words} ${limit}` })
  }
  bound("minimum", (limit) => value < limit, "at least")
  bound("maximum", (limit) => value > limit, "at most")
  bound("exclusiveMinimum", (limit) => value <= limit, "more than")
  bound("exclusiveMaximum", (limit) => value >= limit, "less than")
}

const check = (schema: Schema, value: unknown, pointer: string, out: Array<InputProblem>): void => {
  if (out.length >= MAX_PROBLEMS) return
  if (schema.type !== undefined) {
    const names = (Array.isArray(schema.type) ? schema.type : [schema.type]) as ReadonlyArray<string>
    if (!names.some((name) => typeMatches(name, value))) {
      out.push({ pointer, message: `must be ${names.join(" or ")}, not ${typeOf(value)}` })
      return
    }
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => sameJson(option, value))) {
    out.push({ pointer, message: `must be one of ${JSON.stringify(schema.enum).slice(0, 200)}` })
  }
  if ("const" in schema && !sameJson(schema.const, value)) {
    out.push({ pointer, message: `must be ${JSON.stringify(schema.const).slice(0, 200)}` })
  }
  if (typeof value === "string") stringProblems(schema, value, pointer, out)
  else if (typeof value === "number") numberProblems(schema, value, pointer, out)
  else if (Array.isArray(value)) arrayProblems(schema, value, pointer, out)
  else if (typeof value === "object" && value !== null) objectProblems(schema, value as Schema, pointer, out)
}

const arrayProblems = (schema: Schema, value: ReadonlyArray<unknown>, pointer: string, out: Array<InputProblem>) => {
  if (typeof schema.minItems === "number" && value.length < schema.minItems) {
    out.push({ pointer, message: `must have at least ${schema.minItems} items` })
  }
  if (typeof schema.maxItems === "number" && value.length > schema.maxItems) {
    out.push({ pointer, message: `must have at most ${schema.maxItems} items` })
  }
  const items = schema.items as Schema | undefined
  value.forEach((item, index) =>
    items === undefined
      ? unicodeProblems(item, `${pointer}/${index}`, out)
      : check(items, item, `${pointer}/${index}`, out)
  )
}

const objectProblems = (schema: Schema, value: Schema, pointer: string, out: Array<InputProblem>) => {
  const properties = (schema.properties ?? {}) as Readonly<Record<string, Schema>>
  for (const name of (schema.required ?? []) as ReadonlyArray<string>) {
    if (!Object.hasOwn(value, name)) out.push({ pointer: `${pointer}/${escapePointer(name)}`, message: "is required" })
  }
  for (const [name, item] of Object.entries(value)) {
    const at = `${pointer}/${escapePointer(name)}`
    if (LONE_SURROGATE.test(name)) {
      out.push({ pointer: at, message: "the name is not valid Unicode (a lone surrogate)" })
    }
    const own = Object.hasOwn(properties, name) ? properties[name] : undefined
    const extra = schema.additionalProperties
    if (own !== undefined) check(own, item, at, out)
    else if (extra === false) out.push({ pointer: at, message: "is not a property of the input" })
    else if (typeof extra === "object" && extra !== null) check(extra as Schema, item, at, out)
    else unicodeProblems(item, at, out)
  }
}

/** Strings nowhere in a value the schema says nothing about may be broken Unicode either. */
const unicodeProblems = (value: unknown, pointer: string, out: Array<InputProblem>): void => {
  if (out.length >= MAX_PROBLEMS) return
  if (typeof value === "string") {
    if (LONE_SURROGATE.test(value)) out.push({ pointer, message: "the text is not valid Unicode (a lone surrogate)" })
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) unicodeProblems(item, `${pointer}/${escapePointer(key)}`, out)
  }
}

/** The violations of `input` against `schema` (at most 50; empty when it satisfies it). */
export const inputProblems = (schema: Schema, input: unknown): ReadonlyArray<InputProblem> => {
  const out: Array<InputProblem> = []
  check(schema, input, "", out)
  return out
}
