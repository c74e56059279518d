import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import {
  compileUserPattern,
  MAX_MATCH_WORK,
  MAX_PROGRAM_SIZE,
  patternRefusal,
  type UserPattern
} from "../../../../src/domain/patterns/UserPattern.js"

const compiled = (source: string, flags = ""): UserPattern => {
  const pattern = compileUserPattern(source, flags)
  if (Either.isLeft(pattern)) throw new Error(`/${source}/ refused: ${pattern.left}`)
  return pattern.right
}

/** The pattern as a whole-text pattern, searched without the work bound (the bound is tested on its own). */
const wholeMatch = (source: string, text: string) => compiled(`^(?:${source})$`).search(text, 0) !== undefined

const timed = <A>(run: () => A): { readonly value: A; readonly millis: number } => {
  const started = performance.now()
  const value = run()
  return { value, millis: performance.now() - started }
}

// Each took from seconds to longer than anyone waited on a backtracking
// engine at a few dozen to a few thousand characters; on RE2 the time is
// linear in the text. The bound is generous: the machine is shared.
const BOUND_MS = 2_000
const EMAIL =
  "^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$"

describe("hostile patterns run in linear time", () => {
  const cases: ReadonlyArray<
    readonly [pattern: string, text: string, first: string | undefined, whole: boolean]
  > = [
    ["(a+)+$", `${"a".repeat(100_000)}!`, undefined, false],
    ["(a+)+$", "a".repeat(100_000), "a".repeat(100_000), true],
    ["(a|a)*b", "a".repeat(100_000), undefined, false],
    ["(a|aa|aaa)*b", "a".repeat(100_000), undefined, false],
    ["(\\w+\\s?)*$", `${"word ".repeat(20_000)}!`, "", false],
    ["^(\\d+)*$", `${"1".repeat(100_000)}x`, undefined, false],
    ["(.*a){20}", `${"a".repeat(20_000)}`, "a".repeat(20_000), true],
    ["(.*a){20}", `${"a".repeat(19)}${"b".repeat(20_000)}`, undefined, false],
    ["(x+x+)+y", "x".repeat(100_000), undefined, false],
    ["((a|b|ab)*|c)*d", "ab".repeat(50_000), undefined, false],
    ["(?:(?:a|b)*(?:b|c)*)*d", "abc".repeat(30_000), undefined, false],
    [EMAIL, `${"a".repeat(100_000)}!`, undefined, false],
    [EMAIL, "john.doe_x@example.co.uk", "john.doe_x@example.co.uk", true]
  ]

  for (const [pattern, text, first, whole] of cases) {
    it(`/${pattern}/ on ${text.length} characters`, () => {
      const search = timed(() => compiled(pattern).search(text, 0))
      expect(search.value?.match).toBe(first)
      expect(search.millis).toBeLessThan(BOUND_MS)
      const exact = timed(() => wholeMatch(pattern, text))
      expect(exact.value).toBe(whole)
      expect(exact.millis).toBeLessThan(BOUND_MS)
    })
  }

  it("a megabyte of text is no problem for an ordinary pattern", () => {
    const text = `${"x".repeat(1 << 20)} order 12345`
    const run = timed(() => compiled("order (\\d+)").search(text, 0))
    expect(run.value?.groups).toEqual(["12345"])
    expect(run.millis).toBeLessThan(BOUND_MS)
  })
})

describe("what Parley cannot run is refused with a reason", () => {
  it("backreferences, lookaround and atomic groups, by name", () => {
    const linear = "a feature Parley cannot run in linear time"
    expect(patternRefusal("(a)\\1")).toBe(`it uses a backreference (\\1), ${linear}`)
    expect(patternRefusal("(?<q>['\"]).*\\k<q>")).toBe(`it uses a named backreference (\\k<...>), ${linear}`)
    expect(patternRefusal("\\d+(?=€)")).toBe(`it uses a lookahead ((?=...)), ${linear}`)
    expect(patternRefusal("^(?!.*admin)")).toBe(`it uses a negative lookahead ((?!...)), ${linear}`)
    expect(patternRefusal("(?<=\\$)\\d+")).toBe(`it uses a lookbehind ((?<=...)), ${linear}`)
    expect(patternRefusal("(?<!no )way")).toBe(`it uses a negative lookbehind ((?<!...)), ${linear}`)
    expect(patternRefusal("(?>a+)b")).toBe(`it uses an atomic group ((?>...)), ${linear}`)
  })

  it("the same characters inside a class or escaped are literals, and accepted", () => {
    for (const pattern of ["[\\d(?=]", "\\(?=", "[(?=]x", "\\\\1", "[]\\\\1]", "a\\(?<=b"]) {
      expect(patternRefusal(pattern), pattern).toBeUndefined()
    }
  })

  it("a syntax error, an unknown flag, or a pattern too large", () => {
    expect(patternRefusal("(unclosed")).toBe("it is not a valid pattern (missing closing ): `(unclosed`)")
    expect(patternRefusal("a{1001}")).toMatch(/^it is not a valid pattern \(invalid repeat count/)
    expect(patternRefusal("a", "x")).toBe("it uses the flag \"x\", which Parley does not know (i, m, s, u)")
    // Refused before compiling: seventy repeats of a thousand would take most of a second to build.
    const huge = timed(() => patternRefusal("a{1000}".repeat(70)))
    expect(huge.value).toBe("it is too large: it would compile to about 70002 instructions, at most 1000")
    expect(huge.millis).toBeLessThan(BOUND_MS)
    // Near the bound the estimate lets it through and the compiled size decides.
    expect(patternRefusal(".{0,499}")).toBeUndefined()
    expect(compiled(".{0,499}").size).toBe(MAX_PROGRAM_SIZE)
    expect(patternRefusal(".{0,500}")).toBe("it is too large: it compiles to 1002 instructions, at most 1000")
  })
})

describe("matching", () => {
  it("whole texts, and the first match or its first group", () => {
    const code = compiled("[A-Z]{2}-\\d{5}")
    expect(code.matchesWhole("AB-12345")).toBe(true)
    expect(code.matchesWhole("xAB-12345")).toBe(false)
    expect(compiled("yes|no").matchesWhole("yesno")).toBe(false)
    expect(compiled("[A-Z]{3}-\\d+").firstMatch("ref ABC-12 and XYZ-9")).toBe("ABC-12")
    expect(compiled("#(\\d+)").firstMatch("order #42")).toBe("42")
    expect(compiled("#(\\d+)?x").firstMatch("#x")).toBe("#x")
    expect(compiled("zzz").firstMatch("abc")).toBeUndefined()
  })

  it("ECMAScript spellings keep working: named groups, \\u escapes, [^]", () => {
    const date = compiled("(?<year>\\d{4})-(?<month>\\d\\d)").search("on 2025-11-02", 0)
    expect(date).toMatchObject({ match: "2025-11", start: 3, end: 10, named: { year: "2025", month: "11" } })
    expect(compiled("caf\\u00e9").matchesWhole("café")).toBe(true)
    expect(compiled("\\u{1F600}").matchesWhole("😀")).toBe(true)
    expect(compiled("a[^]b").matchesWhole("a\nb")).toBe(true)
  })

  it("flags, as arguments and inline", () => {
    expect(compiled("hello", "i").matchesWhole("HeLLo")).toBe(true)
    expect(compiled("(?i)hello").matchesWhole("HELLO")).toBe(true)
    expect(compiled("(?i:he)llo").matchesWhole("HEllo")).toBe(true)
    expect(compiled("(?i:he)llo").matchesWhole("HELLO")).toBe(false)
    expect(compiled("^b$", "m").firstMatch("a\nb\nc")).toBe("b")
    expect(compiled("^b$").firstMatch("a\nb\nc")).toBeUndefined()
    expect(compiled("a.b", "s").matchesWhole("a\nb")).toBe(true)
    expect(compiled("a.b").matchesWhole("a\nb")).toBe(false)
    expect(compiled("é", "u").matchesWhole("é")).toBe(true)
  })

  it("non-ASCII text: code points, folding in every script, ASCII \\w \\d \\s, Unicode \\p{...}", () => {
    // `.` is one code point: an emoji is one character, not two halves.
    expect(compiled("^.{3}$").matchesWhole("a😀b")).toBe(true)
    expect(compiled("😀+").matchesWhole("😀😀")).toBe(true)
    // Case folds in every script.
    expect(compiled("(?i)été").matchesWhole("ÉTÉ")).toBe(true)
    expect(compiled("(?i)σοφία").matchesWhole("ΣΟΦΊΑ")).toBe(true)
    // `\w`, `\d`, `\s` and `\b` are ASCII, as in ECMAScript; `\p{L}` is any letter.
    expect(compiled("\\w+").matchesWhole("José")).toBe(false)
    expect(compiled("\\p{L}+").matchesWhole("José")).toBe(true)
    expect(compiled("[\\p{L}\\p{N}_]+").matchesWhole("Ωmega_٣")).toBe(true)
    expect(compiled("\\d").matchesWhole("٣")).toBe(false)
    expect(compiled("\\s").matchesWhole("\u00a0")).toBe(false)
    expect(compiled("[\\s\\p{Z}]").matchesWhole("\u00a0")).toBe(true)
    expect(compiled("\\p{Greek}+").matchesWhole("λόγος")).toBe(true)
  })

  it("a search that would do more than the work bound finds nothing; within it, it runs", () => {
    const costly = compiled("(.*a){20}")
    const fits = "a".repeat(Math.floor(MAX_MATCH_WORK / costly.size) - 1)
    expect(costly.workOn(fits)).toBeLessThanOrEqual(MAX_MATCH_WORK)
    expect(costly.matchesWhole(fits)).toBe(true)
    expect(costly.firstMatch(fits)).toBe("a")
    const over = `${fits}a`
    expect(costly.workOn(over)).toBeGreaterThan(MAX_MATCH_WORK)
    expect(costly.matchesWhole(over)).toBe(false)
    expect(costly.firstMatch(over)).toBeUndefined()
    // The largest pattern on the longest message is within the bound.
    expect(compiled(".{0,499}").workOn("x".repeat(3_999))).toBe(MAX_MATCH_WORK)
  })

  it("a search from a position still sees the text before it", () => {
    expect(compiled("^a").search("aaa", 1)).toBeUndefined()
    expect(compiled("\\bb").search("ab b", 1)).toMatchObject({ match: "b", start: 3 })
    expect(compiled("(a)|(b)").search("xb", 0)).toMatchObject({ match: "b", groups: [undefined, "b"] })
  })
})
