import { describe, expect, it } from "@effect/vitest"
import { isoDate, parseDate } from "../../../../../src/domain/runtime/engine/DateParsing.js"
import { localeFormats } from "../../../../../src/domain/runtime/engine/LocaleFormats.js"
import { parseNumber } from "../../../../../src/domain/runtime/engine/NumberParsing.js"

describe("localeFormats", () => {
  it("reads separators and date order from ICU", () => {
    expect(localeFormats("en-US")).toEqual({ locale: "en-US", decimal: ".", group: ",", dateOrder: "mdy" })
    expect(localeFormats("en")).toMatchObject({ dateOrder: "mdy" })
    expect(localeFormats("en-GB")).toMatchObject({ decimal: ".", group: ",", dateOrder: "dmy" })
    expect(localeFormats("de")).toMatchObject({ decimal: ",", group: ".", dateOrder: "dmy" })
    expect(localeFormats("ja")).toMatchObject({ dateOrder: "dmy" })
  })

  it("falls back for a tag ICU cannot read", () => {
    expect(localeFormats("zz-!!")).toEqual({ locale: "zz-!!", decimal: ".", group: ",", dateOrder: "dmy" })
  })
})

describe("parseNumber", () => {
  const en = localeFormats("en")
  const de = localeFormats("de")

  it("keeps plain forms the same in every locale", () => {
    for (const formats of [en, de]) {
      expect(parseNumber("0", formats)).toBe(0)
      expect(parseNumber("  -17 ", formats)).toBe(-17)
      expect(parseNumber("- 5", formats)).toBe(-5)
      expect(parseNumber("1,234.56", formats)).toBe(1234.56)
      expect(parseNumber("1.234,56", formats)).toBe(1234.56)
      expect(parseNumber("0.25", formats)).toBe(0.25)
    }
  })

  it("reads the one ambiguous shape by the locale", () => {
    expect(parseNumber("1,000", en)).toBe(1000)
    expect(parseNumber("1.000", en)).toBe(1)
    expect(parseNumber("1.000", de)).toBe(1000)
    expect(parseNumber("1,000", de)).toBe(1)
    expect(parseNumber("12,5", en)).toBe(12.5)
    expect(parseNumber("1234,567", en)).toBe(1234.567)
  })

  it("refuses what is not a number", () => {
    for (
      const text of [
        "",
        "-",
        ".",
        "abc",
        "1e5",
        "0x10",
        "1 2",
        "1,,2",
        "1.2.3,4.5",
        "∞",
        "NaN",
        "12%",
        "1_000",
        "9".repeat(400)
      ]
    ) {
      expect(parseNumber(text, en), text).toBeUndefined()
    }
  })
})

describe("parseDate", () => {
  it("builds ISO dates and refuses impossible ones", () => {
    expect(isoDate(2024, 2, 29)).toBe("2024-02-29")
    expect(isoDate(1900, 2, 29)).toBeUndefined()
    expect(isoDate(2000, 2, 29)).toBe("2000-02-29")
    expect(isoDate(12, 1, 1)).toBe("0012-01-01")
    expect(isoDate(2024, 4, 31)).toBeUndefined()
    expect(isoDate(10000, 1, 1)).toBeUndefined()
  })

  it("reads separators consistently: a date mixes none", () => {
    const gb = localeFormats("en-GB")
    expect(parseDate("05.03.2024", gb)).toBe("2024-03-05")
    expect(parseDate("05-03-2024", gb)).toBe("2024-03-05")
    expect(parseDate("05/03-2024", gb)).toBeUndefined()
    expect(parseDate("5/3/202", gb)).toBeUndefined()
    expect(parseDate("2024-03-05T10:00", gb)).toBeUndefined()
  })
})
