/**
 * Valid-shaped values from a JSON Schema: what a well-meaning client would
 * send, so that the suite's mutations land deep inside a body the decoder
 * otherwise accepts. Ids the suite knows (the owner's Assistant, its nodes,
 * its deployment) are used where a field or parameter of that name appears,
 * so requests reach real rows. Fields that take a pattern or an expression
 * get hostile ones more often than not.
 */
import { AWKWARD_TEXT, HOSTILE_EXPRESSIONS, HOSTILE_INPUTS, HOSTILE_PATTERNS, UNSTORABLE_TEXT } from "./Adversarial.js"
import type { Dice } from "./Dice.js"
import { branchesOf, type JsonSchema } from "./OpenApiRoutes.js"

/** What a value is built with: the document's references, and the real ids the suite holds. */
export interface ValueContext {
  readonly resolve: (schema: JsonSchema) => JsonSchema
  /** A real id for a field or parameter of this name, if the suite has one. */
  readonly known: (name: string) => string | undefined
  /** Plain text only: no awkward, unstorable or hostile text, so the value passes the decoder. */
  readonly plain?: boolean
  /** Whether pattern and expression fields may get hostile ones (they do unless `false`). */
  readonly hostilePatterns?: boolean
}

/** A field whose value is a pattern or an expression someone else's text will be run against. */
export const isPatternField = (name: string) => /pattern|regex|expression|condition|^when$|^match$|^rule$/i.test(name)

const isExpressionField = (name: string) => /expression|condition|^when$|^rule$/i.test(name)

const MAX_DEPTH = 8

const stringOf = (dice: Dice, schema: JsonSchema, context: ValueContext, name: string): string => {
  if (isPatternField(name) && context.hostilePatterns !== false && dice.chance(0.6)) {
    return isExpressionField(name) && dice.chance(0.7) ? dice.pick(HOSTILE_EXPRESSIONS) : dice.pick(HOSTILE_PATTERNS)
  }
  const description = String(schema["description"] ?? "")
  if (schema["format"] === "uuid") return context.known(name) ?? dice.uuid()
  if (schema["format"] === "email") return `fuzz-${dice.int(0, 1_000_000)}@example.com`
  if (schema["format"] === "binary") return "x"
  if (/decoded into a number/i.test(description)) return String(dice.int(0, 100))
  if (/DateTime|into a Date/i.test(description)) return new Date(dice.int(0, 2_000_000_000_000)).toISOString()
  if (/into a boolean/i.test(description)) return dice.pick(["true", "false"])
  const known = context.known(name)
  if (known !== undefined && dice.chance(0.8)) return known
  if (typeof schema["pattern"] === "string" && dice.chance(0.9)) {
    const matching = dice.matching(schema["pattern"])
    if (matching !== undefined) return matching
  }
  const min = Number(schema["minLength"] ?? 1)
  const max = Math.max(min, Math.min(Number(schema["maxLength"] ?? 24), 24))
  const roll = context.plain === true ? 99 : dice.int(0, 99)
  const text = roll < 8
    ? dice.pick(AWKWARD_TEXT)
    : roll < 14
    ? dice.pick(HOSTILE_INPUTS)
    : roll < 16
    ? dice.pick(UNSTORABLE_TEXT)
    : dice.text(min, max)
  return text
}

const numberOf = (dice: Dice, schema: JsonSchema, integer: boolean): number => {
  const lowest = schema["minimum"] ?? (schema["exclusiveMinimum"] !== undefined ? schema["exclusiveMinimum"] + 1 : 0)
  const highest = schema["maximum"] ?? (schema["exclusiveMaximum"] !== undefined ? schema["exclusiveMaximum"] - 1 : 100)
  const min = Math.ceil(Math.max(-1_000_000, Number(lowest)))
  const max = Math.floor(Math.min(1_000_000, Math.max(min, Number(highest))))
  const whole = dice.int(min, max)
  return integer || whole >= max ? whole : whole + dice.int(0, 99) / 100
}

/** A value of `schema`, valid in shape (and usually in content); `name` is the field or parameter it fills. */
export const valueOf = (
  dice: Dice,
  input: JsonSchema,
  context: ValueContext,
  name = "",
  depth = 0
): unknown => {
  const schema = context.resolve(input)
  if (schema["anyOf"] !== undefined || schema["oneOf"] !== undefined) {
    const branches = branchesOf(schema, context.resolve)
    const present = branches.filter((branch) => branch["type"] !== "null")
    const branch = present.length > 0 && dice.chance(0.85) ? dice.pick(present) : dice.pick(branches)
    return valueOf(dice, branch, context, name, depth)
  }
  if (Array.isArray(schema["enum"])) return dice.pick(schema["enum"] as ReadonlyArray<unknown>)
  const declared = schema["type"]
  const type = Array.isArray(declared)
    ? dice.pick(declared as ReadonlyArray<string>)
    : declared ?? (schema["properties"] !== undefined ? "object" : schema["items"] !== undefined ? "array" : "string")
  switch (type) {
    case "string":
      return stringOf(dice, schema, context, name)
    case "integer":
      return numberOf(dice, schema, true)
    case "number":
      return numberOf(dice, schema, false)
    case "boolean":
      return dice.chance(0.5)
    case "null":
      return null
    case "array": {
      const min = Number(schema["minItems"] ?? 0)
      if (depth >= MAX_DEPTH) return []
      const max = Math.max(min, Math.min(Number(schema["maxItems"] ?? 3), min + 3))
      const singular = name.replace(/s$/, "")
      return Array.from(
        { length: dice.int(min, max) },
        () => valueOf(dice, schema["items"] ?? {}, context, singular, depth + 1)
      )
    }
    default:
      return objectOf(dice, schema, context, depth)
  }
}

const objectOf = (dice: Dice, schema: JsonSchema, context: ValueContext, depth: number) => {
  const value: Record<string, unknown> = {}
  if (depth >= MAX_DEPTH) return value
  const required = new Set<string>(schema["required"] ?? [])
  for (const [key, property] of Object.entries((schema["properties"] ?? {}) as Record<string, JsonSchema>)) {
    if (required.has(key) || dice.chance(0.5)) value[key] = valueOf(dice, property, context, key, depth + 1)
  }
  // A record (`patternProperties` or a schema for additional properties): a few entries with keys of its shape.
  const entries = (Object.values(schema["patternProperties"] ?? {})[0] as JsonSchema | undefined) ??
    (typeof schema["additionalProperties"] === "object" ? schema["additionalProperties"] as JsonSchema : undefined)
  if (entries !== undefined) {
    const keyShape = context.resolve(schema["propertyNames"] ?? {})
    for (let i = dice.int(0, 2); i > 0; i--) {
      const key = typeof keyShape["pattern"] === "string"
        ? dice.matching(keyShape["pattern"]) ?? `key${i}`
        : `key${i}`
      value[key] = valueOf(dice, entries, context, key, depth + 1)
    }
  }
  return value
}
