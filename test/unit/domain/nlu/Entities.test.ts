import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { Slot } from "../../../../src/domain/assistants/Intent.js"
import { compileUserPattern } from "../../../../src/domain/patterns/UserPattern.js"
import { findDate, findDateTime } from "../../../../src/domain/runtime/engine/BuiltinEntities.js"
import { localeFormats } from "../../../../src/domain/runtime/engine/LocaleFormats.js"
import { extractSlots } from "../../../../src/domain/runtime/engine/SlotExtraction.js"
import { findTime, findWrittenDate } from "../../../../src/domain/runtime/engine/WrittenDates.js"

const gb = localeFormats("en-GB")
const us = localeFormats("en-US")

describe("written dates and times", () => {
  it("reads dates with an English month name, day first or month first, and refuses impossible ones", () => {
    expect(findWrittenDate("on 5 March 2025 please")).toBe("2025-03-05")
    expect(findWrittenDate("the 21st of Sept 2026")).toBe("2026-09-21")
    expect(findWrittenDate("March 5, 2025")).toBe("2025-03-05")
    expect(findWrittenDate("by Dec. 31 1999 or 1 jan 2000")).toBe("1999-12-31")
    expect(findWrittenDate("30 February 2024 then 2 May 2024")).toBe("2024-05-02")
    expect(findWrittenDate("5 March")).toBeUndefined()
    expect(findWrittenDate("mayday 12 2024")).toBeUndefined()
  })

  it("reads times of day on a 24-hour clock", () => {
    expect(findTime("at 10:30 please")).toBe("10:30")
    expect(findTime("at 7pm")).toBe("19:00")
    expect(findTime("7 a.m. sharp")).toBe("07:00")
    expect(findTime("12 am")).toBe("00:00")
    expect(findTime("12:15 pm")).toBe("12:15")
    expect(findTime("7.30pm")).toBe("19:30")
    expect(findTime("at 23:59:59")).toBe("23:59:59")
    expect(findTime("lunch at noon, not midnight")).toBe("12:00")
    expect(findTime("it costs 12.50")).toBeUndefined()
    expect(findTime("25:00 or 13 pm or 10:61")).toBeUndefined()
    expect(findTime("7 amazing cakes")).toBeUndefined()
  })

  it("gives a date-time slot its date, its time, or both", () => {
    expect(findDateTime("on 2025-03-05T10:30Z please", gb)).toBe("2025-03-05T10:30Z")
    expect(findDateTime("5 March 2025 at 7pm", gb)).toBe("2025-03-05T19:00")
    expect(findDateTime("05/03/2025 at 10:30", gb)).toBe("2025-03-05T10:30")
    expect(findDateTime("05/03/2025 at 10:30", us)).toBe("2025-05-03T10:30")
    expect(findDateTime("on 05.03.2025", gb)).toBe("2025-03-05")
    expect(findDateTime("around 8:15", gb)).toBe("08:15")
    expect(findDateTime("someday", gb)).toBeUndefined()
    expect(findDate("March 5, 2025", gb)).toBe("2025-03-05")
  })
})

describe("slot extraction, every entity kind", () => {
  const slots = Schema.decodeUnknownSync(Schema.Array(Slot))([
    { name: "count", entity: { kind: "number" } },
    { name: "email", entity: { kind: "email" } },
    { name: "when", entity: { kind: "datetime" } },
    { name: "phone", entity: { kind: "phone" } },
    { name: "site", entity: { kind: "url" } },
    {
      name: "city",
      entity: { kind: "list", values: [{ value: "Paris" }, { value: "New York", synonyms: ["NYC", "big apple"] }] }
    },
    { name: "code", entity: { kind: "regex", pattern: "\\b([A-Z]{3})-\\d+" } }
  ])
  const context = { formats: gb, pattern: (source: string) => compileUserPattern(source) }

  it("fills each slot from one message", () => {
    expect(extractSlots(
      "table for 4 in the Big Apple on 5 March 2025 at 7.30pm, ref ABC-123, Ann@Example.com, https://example.com/menu, call +44 20 7946 0958",
      slots,
      context
    )).toEqual({
      count: 4,
      email: "ann@example.com",
      when: "2025-03-05T19:30",
      phone: "+442079460958",
      site: "https://example.com/menu",
      city: "New York",
      code: "ABC"
    })
  })

  it("leaves out what a message does not have", () => {
    expect(extractSlots("paris, please", slots, context)).toEqual({ city: "Paris" })
    expect(extractSlots("nothing at all", slots, context)).toEqual({})
  })
})
