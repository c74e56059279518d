import { describe, expect, it } from "@effect/vitest"
import { canonicalJson } from "../../../src/domain/CanonicalJson.js"

describe("canonicalJson", () => {
  it("sorts object keys at every depth and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      `{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}`
    )
  })

  it("gives one text whatever order an object was built in", () => {
    const built = { workspaceId: "w", actor: { userId: "u", kind: "user" }, sequence: 1 }
    const rebuilt = { sequence: 1, actor: { kind: "user", userId: "u" }, workspaceId: "w" }
    expect(canonicalJson(built)).toBe(canonicalJson(rebuilt))
  })

  it("sorts by UTF-16 code units, as RFC 8785 does", () => {
    expect(canonicalJson({ "é": 1, "Z": 2, "a": 3, "\u{1F600}": 4, "\uFFFF": 5 })).toBe(
      `{"Z":2,"a":3,"é":1,"\u{1F600}":4,"\uFFFF":5}`
    )
  })

  it("writes dates as ISO strings with milliseconds", () => {
    expect(canonicalJson({ at: new Date(Date.UTC(2025, 0, 2, 3, 4, 5)) })).toBe(`{"at":"2025-01-02T03:04:05.000Z"}`)
  })

  it("follows JSON.stringify for what JSON cannot hold", () => {
    expect(canonicalJson({ gone: undefined, fn: () => 1, kept: 0 })).toBe(`{"kept":0}`)
    expect(canonicalJson([undefined, Number.NaN, Number.POSITIVE_INFINITY])).toBe(`[null,null,null]`)
    expect(canonicalJson(undefined)).toBe("null")
    expect(() => canonicalJson({ big: 1n })).toThrow(TypeError)
  })

  it("escapes strings as JSON does and reads back to an equal value", () => {
    const value = { text: "line\n\"quoted\" \u0001 ☃", numbers: [0, -1.5, 1e21, 0.1], flag: false }
    const text = canonicalJson(value)
    expect(JSON.parse(text)).toEqual(value)
    expect(canonicalJson(JSON.parse(text))).toBe(text)
  })
})
