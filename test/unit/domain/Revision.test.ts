import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { IfMatchHeaders } from "../../../src/domain/Revision.js"

const decode = (value: string) =>
  Either.map(Schema.decodeUnknownEither(IfMatchHeaders)({ "if-match": value }), (headers) => headers["if-match"])

describe("If-Match", () => {
  it("takes a revision bare or as the entity tag standard clients send", () => {
    expect([decode("5"), decode("\"5\""), decode("W/\"12\"")]).toEqual([
      Either.right(5),
      Either.right(5),
      Either.right(12)
    ])
    expect(Schema.decodeUnknownSync(IfMatchHeaders)({})).toEqual({})
  })

  it("refuses what is not one revision", () => {
    for (const value of ["", "0", "\"\"", "\"5", "5\"", "*", "\"5\", \"6\"", "five", "-1", "1.5", "W/5x"]) {
      expect(Either.isLeft(decode(value)), value).toBe(true)
    }
  })
})
