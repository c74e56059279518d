/** Cutting user text to a length never leaves half of a surrogate pair, and fits the length. */
import { describe, expect, it } from "@effect/vitest"
import { excerpt, truncate } from "../../../src/domain/Excerpt.js"

const isWellFormed = (text: string) =>
  !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text)

describe("excerpts", () => {
  it("never cut between the halves of a pair, and fit the length they are given", () => {
    const emoji = "😀".repeat(100)
    for (let max = 0; max <= 20; max++) {
      for (const cut of [truncate(emoji, max), excerpt(emoji, max), excerpt(`a${emoji}`, max)]) {
        expect(isWellFormed(cut), `${max}: ${cut}`).toBe(true)
        expect(cut.length).toBeLessThanOrEqual(max)
      }
    }
    expect(excerpt(emoji, 120)).toBe(`${"😀".repeat(59)}…`)
    expect(excerpt(`a${emoji}`, 120)).toBe(`a${"😀".repeat(59)}…`)
    expect(excerpt("short", 120)).toBe("short")
    expect(excerpt("words and more words", 10)).toBe("words and…")
    expect(truncate("abc😀", 4)).toBe("abc")
    expect(truncate("abc😀", 5)).toBe("abc😀")
  })
})
