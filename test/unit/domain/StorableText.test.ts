/**
 * The pure rules behind refusing text at the edge: what PostgreSQL cannot
 * store, where it is in a JSON value (keys too, at any depth), and how deep a
 * JSON text nests without parsing it.
 */
import { describe, expect, it } from "@effect/vitest"
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../../../src/domain/JsonDepth.js"
import { fieldStep, findFlaw, flawOf, InvalidText, storable } from "../../../src/domain/StorableText.js"

const isWellFormed = (text: string) =>
  !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text)

describe("storable text", () => {
  it("flags NUL and lone surrogates of either half, and nothing else", () => {
    expect(flawOf("a\u0000b")).toBe("nul-character")
    expect(flawOf("a\ud800")).toBe("lone-surrogate")
    expect(flawOf("\ud800b")).toBe("lone-surrogate")
    expect(flawOf("a\udc00")).toBe("lone-surrogate")
    expect(flawOf("\udc00\ud800")).toBe("lone-surrogate")
    for (const fine of ["", "plain", "😀", "👩‍👩‍👧", "𝄞 中文 café", "\u0001\u007f\uFFFD\uFEFF", "\ud83d\ude00"]) {
      expect(flawOf(fine), fine).toBeUndefined()
    }
  })

  it("replaces each flaw by U+FFFD, keeping the length and the pairs", () => {
    const text = "a\u0000b\ud800c\udc00😀"
    expect(storable(text)).toBe("a\uFFFDb\uFFFDc\uFFFD😀")
    expect(storable(text).length).toBe(text.length)
    expect(flawOf(storable(text))).toBeUndefined()
  })

  it("finds a flawed value or key anywhere in a JSON value and names its path", () => {
    const body = {
      flow: { nodes: [{ data: { text: "ok" } }, { data: { text: "ok" } }, { data: { text: "a\u0000" } }] }
    }
    expect(findFlaw(body, "body")).toEqual({
      field: "body.flow.nodes[2].data.text",
      flaw: "nul-character",
      inKey: false
    })
    expect(findFlaw({ a: { "x\ud800": 1 } }, "body")).toEqual({
      field: "body.a[\"x\\ud800\"]",
      flaw: "lone-surrogate",
      inKey: true
    })
    expect(findFlaw(["\udc00"], "body")).toEqual({ field: "body[0]", flaw: "lone-surrogate", inKey: false })
    expect(findFlaw("\u0000", "body")).toEqual({ field: "body", flaw: "nul-character", inKey: false })
    expect(findFlaw({ a: [1, true, null, "😀", { b: "fine" }] }, "body")).toBeUndefined()
  })

  it("walks any depth without recursion", () => {
    let deep: unknown = "\u0000"
    for (let i = 0; i < 200_000; i++) deep = [deep]
    expect(findFlaw(deep, "body")?.flaw).toBe("nul-character")
  })

  it("names a field in printable, storable, bounded text", () => {
    expect(fieldStep("agent_id")).toBe(".agent_id")
    expect(fieldStep(3)).toBe("[3]")
    expect(fieldStep("a b")).toBe("[\"a b\"]")
    expect(fieldStep("\u0000")).toBe("[\"\\u0000\"]")
    expect(fieldStep("😀".repeat(100)).length).toBeLessThanOrEqual(82)
    expect(isWellFormed(fieldStep("😀".repeat(100)))).toBe(true)
    const error = InvalidText.of({ field: "body.name", flaw: "lone-surrogate", inKey: false })
    expect(error).toMatchObject({ field: "body.name", reason: "lone-surrogate" })
    expect(error.message).toBe("body.name holds a lone surrogate (half of a UTF-16 pair), which Parley cannot store")
  })
})

describe("JSON depth", () => {
  it("counts arrays and objects, not brackets in strings, and stops at the first level too deep", () => {
    const nested = (levels: number) => "[".repeat(levels) + "]".repeat(levels)
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false)
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true)
    expect(nestsDeeperThan(`{"a":`.repeat(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true)
    expect(nestsDeeperThan(JSON.stringify({ a: "[".repeat(1000), b: "\\\"[[[" }), 2)).toBe(false)
    // Four levels at most: [ { [ { } ] } ].
    expect(nestsDeeperThan(JSON.stringify([[["x"]], [["y"]], { a: [{}] }]), 4)).toBe(false)
    expect(nestsDeeperThan(JSON.stringify([[["x"]], [["y"]], { a: [{}] }]), 3)).toBe(true)
  })
})
