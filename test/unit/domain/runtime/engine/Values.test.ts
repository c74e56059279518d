import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import {
  findDate,
  findEmail,
  findNumber,
  findPhone,
  findUrl,
  isEmail
} from "../../../../../src/domain/runtime/engine/BuiltinEntities.js"
import {
  compileExpression,
  evaluateExpression,
  makeBudget,
  STEP_EXPRESSION_BUDGET
} from "../../../../../src/domain/runtime/engine/Expressions.js"
import { isTruthy, toJson } from "../../../../../src/domain/runtime/engine/ExpressionValues.js"
import { localeFormats } from "../../../../../src/domain/runtime/engine/LocaleFormats.js"
import { noInput } from "../../../../../src/domain/runtime/engine/Run.js"
import { asText, readPath, renderTemplate } from "../../../../../src/domain/runtime/engine/Templates.js"

describe("templates", () => {
  it("read own paths only and write values as text", () => {
    const variables = { user: { name: "Ann", tags: ["a", "b"] }, n: 0, empty: "" }
    expect(readPath(variables, "user.tags.1")).toBe("b")
    expect(readPath(variables, "user.tags.x")).toBeUndefined()
    expect(readPath(variables, "user.toString")).toBeUndefined()
    expect(readPath(variables, "n.foo")).toBeUndefined()
    expect(asText(0)).toBe("0")
    expect(asText(null)).toBe("")
    expect(renderTemplate("{{n}}{{empty}}{{user.name}}{{ user.name }}{{user .name}}{{}}{{1a}}", variables)).toBe(
      "0AnnAnn{{user .name}}{{}}{{1a}}"
    )
  })
})

describe("expression values", () => {
  it("read truth as JSONata does", () => {
    expect([true, 1, -1, "x", [0, 1], { a: 1 }].map(isTruthy)).toEqual([true, true, true, true, true, true])
    expect([false, 0, Number.NaN, "", [], [0, ""], {}, null, undefined, () => 1].map(isTruthy)).toEqual(
      Array(10).fill(false)
    )
  })

  it("keep results JSON", () => {
    expect(toJson(undefined)).toBeUndefined()
    expect(toJson(() => 1)).toBeUndefined()
    expect(toJson(-0)).toBe(0)
    expect(toJson(Number.POSITIVE_INFINITY)).toBeNull()
    expect(toJson([1, undefined, () => 1])).toEqual([1, null, null])
    expect(toJson({ a: undefined, b: { c: [1] } })).toEqual({ b: { c: [1] } })
  })
})

describe("expressions", () => {
  const scope = { vars: { n: 2 }, input: noInput }
  const at = (nowMillis: number) => ({ nowMillis, budget: makeBudget() })

  it.effect("evaluate over { vars, input } and report failures as values", () =>
    Effect.gen(function*() {
      expect(yield* evaluateExpression(compileExpression("vars.n * 2"), scope, at(0))).toMatchObject({ right: 4 })
      const syntax = yield* evaluateExpression(compileExpression("vars.n *"), scope, at(0))
      expect(syntax._tag).toBe("Left")
      const thrown = yield* evaluateExpression(compileExpression("$error('nope')"), scope, at(0))
      expect(thrown).toMatchObject({ _tag: "Left", left: { message: "nope" } })
    }))

  it.effect("are re-entrant: one compiled expression counts steps per evaluation", () =>
    Effect.gen(function*() {
      const heavy = compileExpression("$sum([1..2000].($ * 2))")
      const results = yield* Effect.all(Array.from({ length: 30 }, () => evaluateExpression(heavy, scope, at(0))), {
        concurrency: "unbounded"
      })
      expect(results.every((result) => result._tag === "Right" && result.right === 4002000)).toBe(true)
    }))

  it.effect("share one budget between the expressions of a step", () =>
    Effect.gen(function*() {
      const context = at(0)
      const heavy = compileExpression("$count([1..9000].($ * 2))")
      const first = yield* evaluateExpression(heavy, scope, context)
      expect(first).toMatchObject({ right: 9000 })
      const spent = STEP_EXPRESSION_BUDGET - context.budget.remaining
      expect(spent).toBeGreaterThan(10_000)
      while (context.budget.remaining > spent) yield* evaluateExpression(heavy, scope, context)
      const starved = yield* evaluateExpression(heavy, scope, context)
      expect(starved).toMatchObject({
        _tag: "Left",
        left: { message: "the step's expressions have used up their evaluation steps" }
      })
      const cheap = yield* evaluateExpression(compileExpression("true"), scope, context)
      expect(cheap._tag).toBe("Left")
      expect(yield* evaluateExpression(compileExpression("true"), scope, at(0))).toMatchObject({ right: true })
    }))

  it.effect("format $now() like JSONata, with a picture and a timezone", () =>
    Effect.gen(function*() {
      const now = compileExpression("[$now(), $now('[Y0001]-[M01]-[D01]'), $now('[H01]:[m01]', '+0200')]")
      expect(yield* evaluateExpression(now, scope, at(Date.UTC(2025, 5, 1, 8, 30)))).toMatchObject({
        right: ["2025-06-01T08:30:00.000Z", "2025-06-01", "10:30"]
      })
    }))
})

describe("built-in entities", () => {
  const gb = localeFormats("en-GB")
  const de = localeFormats("de")

  it("find numbers in the locale", () => {
    expect(findNumber("table for 4 people", gb)).toBe(4)
    expect(findNumber("about 1,500.5 euros", gb)).toBe(1500.5)
    expect(findNumber("etwa 1.500,5 Euro", de)).toBe(1500.5)
    expect(findNumber("room 12b, floor 3.", gb)).toBe(3)
    expect(findNumber("none here", gb)).toBeUndefined()
  })

  it("find emails, URLs and phone numbers", () => {
    expect(isEmail("a@b.co")).toBe(true)
    expect(isEmail(`${"a".repeat(250)}@b.co`)).toBe(false)
    expect(findEmail("write to Ann@Example.org, thanks")).toBe("ann@example.org")
    expect(findUrl("see https://example.com/a?b=1).")).toBe("https://example.com/a?b=1")
    expect(findUrl("or www.example.com")).toBe("www.example.com")
    expect(findPhone("call (555) 123-4567 now")).toBe("5551234567")
    expect(findPhone("+1 555 123 4567")).toBe("+15551234567")
    expect(findPhone("code 12345")).toBeUndefined()
  })

  it("find dates, keeping an ISO date-time as written", () => {
    expect(findDate("on 2025-03-05T10:30Z please", gb)).toBe("2025-03-05T10:30Z")
    expect(findDate("on 2025-02-30T10:30 or 01/02/2025", gb)).toBe("2025-02-01")
    expect(findDate("from 31/02/2025 to 05/03/2025", gb)).toBe("2025-03-05")
    expect(findDate("no date", gb)).toBeUndefined()
  })
})
