import { describe, expect, it } from "@effect/vitest"
import { scanTemplate } from "../../../../../src/domain/workflows/validation/TemplatePlaceholders.js"

describe("template placeholders", () => {
  it("splits out each placeholder with where its {{ stands", () => {
    expect(scanTemplate("Hi {{ vars.name }}, you owe {{vars.total}}.")).toEqual({
      placeholders: [{ source: " vars.name ", at: 3 }, { source: "vars.total", at: 28 }],
      unclosedAt: undefined,
      strayCloseAt: undefined
    })
  })

  it("reads braces, strings and comments inside a placeholder as part of its expression", () => {
    const scan = scanTemplate("{{ {\"a\": {\"b\": 1}} }}{{ \"}}\" & '\\'}}' }}{{ /* }} */ 1 }}")
    expect(scan.placeholders.map((p) => p.source)).toEqual([
      " {\"a\": {\"b\": 1}} ",
      " \"}}\" & '\\'}}' ",
      " /* }} */ 1 "
    ])
  })

  it("finds an unclosed placeholder and the first stray }}", () => {
    expect(scanTemplate("a }} b {{ c }} d {{ e")).toMatchObject({ unclosedAt: 17, strayCloseAt: 2 })
    expect(scanTemplate("{{ \"open string }}")).toMatchObject({ placeholders: [], unclosedAt: 0 })
  })

  it("text without placeholders is all text", () => {
    expect(scanTemplate("plain { text } here")).toEqual({
      placeholders: [],
      unclosedAt: undefined,
      strayCloseAt: undefined
    })
  })
})
