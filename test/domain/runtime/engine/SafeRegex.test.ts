import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import {
  compilePattern,
  findMatch,
  GuardedRegExp,
  matchesWhole,
  MAX_PATTERN_INPUT,
  unsafePattern
} from "../../../../src/domain/runtime/engine/SafeRegex.js"

describe("unsafePattern", () => {
  it("refuses repeated groups that hold a part of varying length", () => {
    for (
      const pattern of [
        "(a+)+",
        "(a*)*b",
        "([a-z]+)*$",
        "(\\w+\\s?)+",
        "(a|aa)+",
        "(?:a|b)*c",
        "((ab)+c)+",
        "(a?){11}",
        "(a+){2,}",
        "(?<word>\\w+)+",
        "(x+x+)+y"
      ]
    ) {
      expect(unsafePattern(pattern), pattern).toBeDefined()
    }
  })

  it("keeps the common shapes", () => {
    for (
      const pattern of [
        "^[A-Z]{2}-\\d{5}$",
        "(\\d{1,3}\\.){3}\\d{1,3}",
        "(?:yes|no)",
        "\\+?\\d+",
        "[(a+)+]",
        "\\(a+\\)+",
        "(abc)+",
        "(a+){3}",
        "(?=a+)x",
        "a{2,5}b*"
      ]
    ) {
      expect(unsafePattern(pattern), pattern).toBeUndefined()
    }
  })
})

describe("compilePattern", () => {
  it("compiles a safe pattern and explains a refused or broken one", () => {
    expect(Either.isRight(compilePattern("\\d+"))).toBe(true)
    expect(compilePattern("(a+)+")).toEqual(Either.left("a repeated group holds a part of varying length"))
    expect(Either.isLeft(compilePattern("(unclosed"))).toBe(true)
  })
})

describe("matching", () => {
  it("matches whole texts within the length cap", () => {
    const digits = /\d+/
    expect(matchesWhole(digits, "123")).toBe(true)
    expect(matchesWhole(digits, "a123")).toBe(false)
    expect(matchesWhole(/a|b/, "ab")).toBe(false)
    expect(matchesWhole(/a+/, "a".repeat(MAX_PATTERN_INPUT + 1))).toBe(false)
  })

  it("finds the first match, or its first group", () => {
    expect(findMatch(/[A-Z]{3}-\d+/, "ref ABC-12 and XYZ-9")).toBe("ABC-12")
    expect(findMatch(/#(\d+)/, "order #42")).toBe("42")
    expect(findMatch(/#(\d+)?x/, "#x")).toBe("#x")
    expect(findMatch(/zzz/, "abc")).toBeUndefined()
  })

  it("guards JSONata's regex literals", () => {
    expect(() => new GuardedRegExp(/(a+)+$/)).toThrow(/refused/)
    const guarded = new GuardedRegExp(/b/g)
    expect(guarded.flags).toBe("g")
    expect(guarded.exec("abc")?.index).toBe(1)
    expect(() => guarded.exec("x".repeat(4001))).toThrow(/too long/)
  })
})
