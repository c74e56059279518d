import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import jsonata from "jsonata"
import { regexEngine } from "../../../../src/domain/patterns/PatternRegExp.js"
import {
  compileExpression,
  evaluateExpression,
  EXPRESSION_STEP_LIMIT,
  type ExpressionScope,
  makeBudget
} from "../../../../src/domain/runtime/engine/Expressions.js"

/** What JSONata answers (a value as JSON, or the code of the error it raised) with a given regex engine. */
const outcome = async (expression: string, engine?: RegExpConstructor): Promise<unknown> => {
  try {
    const compiled = engine === undefined ? jsonata(expression) : jsonata(expression, { RegexEngine: engine })
    // As JSON: JSONata marks its sequences with a property no RegExp result has.
    return JSON.parse(JSON.stringify({ value: await compiled.evaluate({}) }))
  } catch (error) {
    return { error: (error as { code?: string }).code ?? String(error) }
  }
}

// JSONata's documented regex functions, on ordinary patterns: the same
// results from RE2 as from the native RegExp.
const SAME_AS_REGEXP: ReadonlyArray<string> = [
  `$match("ab12cd345", /\\d+/)`,
  `$match("a1b22c333", /[a-z](\\d+)/, 2)`,
  `$match("John Smith", /(\\w+) (\\w+)/)`,
  `$match("Quick brown fox", /(?<first>\\w)(\\w+)/)`,
  `$match("line1\\nline2\\nother", /^line\\d$/m)`,
  `$match("no digits", /\\d/)`,
  `$match("café CAFÉ", /café/i)`,
  `$replace("hello world", /o/, "0")`,
  `$replace("hello world", /o/, "0", 1)`,
  `$replace("John Smith", /(\\w+)\\s(\\w+)/, "$2, $1")`,
  `$replace("265USD", /([0-9]+)USD/, "$$$1")`,
  `$replace("abcABC", /b/i, "x")`,
  `$replace("2020-01-31", /(\\d+)-(\\d+)-(\\d+)/, function($m) { $m.groups[2] & "/" & $m.groups[1] })`,
  `$replace("aaa", /a*?/, "-")`,
  `$split("a1b2c3", /\\d/)`,
  `$split("one,  two;three", /[,;]\\s*/)`,
  `$split("a1b2c3d", /\\d/, 2)`,
  `$contains("Hello World", /^hello/i)`,
  `$contains("Hello World", /xyz/)`,
  `$contains("abc", /b|z/)`,
  `$match("ab", /(x)?b/)`,
  `$split("a😀b😀c", /😀/)`,
  `$replace("tab\\tand\\nnewline", /\\s/, "_")`
]

describe("JSONata's regex functions on RE2", () => {
  for (const expression of SAME_AS_REGEXP) {
    it.effect(expression, () =>
      Effect.gen(function*() {
        const native = yield* Effect.promise(() => outcome(expression))
        const linear = yield* Effect.promise(() => outcome(expression, regexEngine()))
        expect(linear).toEqual(native)
      }))
  }

  it.effect("an emoji is one character to `.`", () =>
    Effect.gen(function*() {
      expect(yield* Effect.promise(() => outcome(`$match("a😀b", /./).match`, regexEngine()))).toEqual({
        value: ["a", "😀", "b"]
      })
    }))

  it.effect("a formerly catastrophic literal answers at once, and correctly", () =>
    Effect.gen(function*() {
      const text = "a".repeat(3_000)
      const started = performance.now()
      const result = yield* Effect.promise(() =>
        outcome(`[$contains("${text}!", /^(a+)+$/), $contains("${text}", /^(a|a)*$/)]`, regexEngine())
      )
      expect(result).toEqual({ value: [false, true] })
      expect(performance.now() - started).toBeLessThan(2_000)
    }))
})

const scope = (text: string): ExpressionScope => ({
  vars: {},
  input: { text, payload: null, intent: null, confidence: null, slots: null }
})

const evaluate = (source: string, text: string) =>
  evaluateExpression(compileExpression(source), scope(text), { nowMillis: 0, budget: makeBudget() })

describe("flow expressions", () => {
  it.effect("a literal Parley cannot run fails the expression when it compiles, with the reason", () =>
    Effect.sync(() => {
      const compiled = compileExpression(`$contains(input.text, /(\\w)\\1/)`)
      expect(compiled.compiled).toEqual(Either.left({
        message: "the pattern /(\\w)\\1/ cannot be used: it uses a backreference (\\1), " +
          "a feature Parley cannot run in linear time"
      }))
      expect(Either.isRight(compileExpression(`$contains(input.text, /(\\w)+\\s/)`).compiled)).toBe(true)
    }))

  it.effect("regex work counts against the evaluation's steps, the same on every machine", () =>
    Effect.gen(function*() {
      // (.*a){20} is 102 instructions: over 4,000 characters, about 8,200 steps a search.
      const text = "a".repeat(4_000)
      const five = yield* evaluate(`$count([1..5].$match($$.input.text, /(.*a){20}/))`, text)
      expect(five).toEqual(Either.right(5))
      const ten = yield* evaluate(`$count([1..10].$match($$.input.text, /(.*a){20}/))`, text)
      expect(ten).toEqual(Either.left({ message: `more than ${EXPRESSION_STEP_LIMIT} evaluation steps` }))
      // Without the costly pattern, the same loop is cheap.
      expect(yield* evaluate(`$count([1..10].$match($$.input.text, /a/))`, "abc")).toEqual(Either.right(10))
    }))

  it.effect("replacements with groups, through the engine's evaluation", () =>
    Effect.gen(function*() {
      expect(yield* evaluate(`$replace(input.text, /(\\d{3})(\\d{4})/, "$1-$2")`, "call 5551234")).toEqual(
        Either.right("call 555-1234")
      )
    }))
})
