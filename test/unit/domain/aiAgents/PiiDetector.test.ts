import { describe, expect, it } from "@effect/vitest"
import { PiiType } from "../../../../src/domain/aiAgents/GuardrailRule.js"
import { detectPii, piiLabel, redactPii } from "../../../../src/domain/aiAgents/guardrails/PiiDetector.js"

const ALL: ReadonlyArray<PiiType> = PiiType.literals

/** The matched texts of one type. */
const found = (text: string, type: PiiType, sensitivity?: "low" | "medium" | "high") =>
  detectPii(text, [type], sensitivity).map((span) => text.slice(span.start, span.end))

describe("detectPii", () => {
  it("finds e-mail addresses and nothing that only looks like one", () => {
    expect(found("Write to jane.doe+news@mail.example.co.uk, please.", "email")).toEqual([
      "jane.doe+news@mail.example.co.uk"
    ])
    expect(found("user@localhost, a@b, @handle, x@y.z", "email")).toEqual([])
  })

  it("finds phone numbers in international and national formats", () => {
    for (
      const phone of [
        "+44 20 7946 0958",
        "(415) 555-0132",
        "+49 30 901820",
        "555.123.4567",
        "001-541-754-3010x123",
        "+41 (0)62 585 51 90"
      ]
    ) {
      expect(found(`You can reach me on ${phone} today.`, "phone")).toEqual([phone])
    }
    expect(found("call 0961-7596216", "phone")).toEqual(["0961-7596216"])
  })

  it("does not take years, order numbers, prices, dates or short numbers for phones", () => {
    expect(found("In 2024 we moved; in 1999 2000 too.", "phone")).toEqual([])
    expect(found("Order 1234567890 shipped, invoice #5551234567.", "phone")).toEqual([])
    expect(found("It costs $1,299.99 or €12 345 678.", "phone")).toEqual([])
    expect(found("Meet on 2024-01-15 10:30:00 at 12.30, room 4521.", "phone")).toEqual([])
    expect(found("The restaurant is at 17151 2450 Crown St", "phone")).toEqual([])
  })

  it("finds payment cards that pass Luhn, with spaces or dashes", () => {
    expect(found("Card: 4111 1111 1111 1111.", "credit-card")).toEqual(["4111 1111 1111 1111"])
    expect(found("Card: 4111-1111-1111-1111.", "credit-card")).toEqual(["4111-1111-1111-1111"])
    expect(found("Amex 378282246310005 and Mastercard 5555555555554444", "credit-card")).toEqual([
      "378282246310005",
      "5555555555554444"
    ])
  })

  it("does not take a number that fails Luhn, lacks an issuer or is oddly grouped for a card", () => {
    expect(found("Card: 4111 1111 1111 1112.", "credit-card")).toEqual([])
    expect(found("Ref 9111111111111111", "credit-card")).toEqual([])
    expect(found("4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1", "credit-card")).toEqual([])
    expect(found("licence U62928788557186", "credit-card")).toEqual([])
  })

  it("finds IBANs by checksum and country length, grouped or not, in either case", () => {
    expect(found("IBAN GB82 WEST 1234 5698 7654 32 thanks", "iban")).toEqual(["GB82 WEST 1234 5698 7654 32"])
    expect(found("to DE89370400440532013000.", "iban")).toEqual(["DE89370400440532013000"])
    expect(found("my iban is gb82west12345698765432", "iban")).toEqual(["gb82west12345698765432"])
  })

  it("does not take an IBAN with a wrong checksum or length", () => {
    expect(found("IBAN GB83 WEST 1234 5698 7654 32", "iban")).toEqual([])
    expect(found("IBAN DE8937040044053201300", "iban")).toEqual([])
    expect(found("IBAN XX82WEST12345698765432", "iban")).toEqual([])
  })

  it("finds social security numbers the SSA could issue", () => {
    expect(found("SSN 536-22-1234", "ssn")).toEqual(["536-22-1234"])
    expect(found("It is 536-22-1234.", "ssn")).toEqual(["536-22-1234"])
    for (const invalid of ["000-22-1234", "666-22-1234", "912-22-1234", "536-00-1234", "536-22-0000"]) {
      expect(found(`SSN ${invalid}`, "ssn")).toEqual([])
    }
  })

  it("is conservative with undashed or unannounced SSNs", () => {
    expect(found("number 536221234", "ssn")).toEqual([])
    expect(found("my social security number is 536221234", "ssn")).toEqual(["536221234"])
    expect(found("number 536221234", "ssn", "high")).toEqual(["536221234"])
    expect(found("It is 536-22-1234.", "ssn", "low")).toEqual([])
  })

  it("finds IPv4 and IPv6 addresses and not look-alikes", () => {
    expect(found("from 192.168.0.1 and 2001:db8::ff00:42:8329 and ::ffff:192.0.2.1", "ip-address")).toEqual([
      "192.168.0.1",
      "2001:db8::ff00:42:8329",
      "::ffff:192.0.2.1"
    ])
    expect(found("999.1.1.1, 1.2.3, 1.2.3.4.5, 256.1.1.1, at 10:30:00, version 1.2.10", "ip-address")).toEqual([])
  })

  it("finds dates of birth near birth words, and any full date at high", () => {
    expect(found("I was born on 12/03/1985 in Leeds", "date-of-birth")).toEqual(["12/03/1985"])
    expect(found("DOB: 1985-03-12", "date-of-birth")).toEqual(["1985-03-12"])
    expect(found("my birthday is March 3, 1985", "date-of-birth")).toEqual(["March 3, 1985"])
    expect(found("The meeting is on 12/03/2025.", "date-of-birth")).toEqual([])
    expect(found("The meeting is on 12/03/2025.", "date-of-birth", "high")).toEqual(["12/03/2025"])
  })

  it("finds passport numbers only next to the word passport", () => {
    expect(found("My passport number is X1234567.", "passport")).toEqual(["X1234567"])
    expect(found("Passport: 123456789", "passport")).toEqual(["123456789"])
    expect(found("Tracking X1234567", "passport")).toEqual([])
  })

  it("finds API keys by their prefixes, and long random tokens only at high", () => {
    const keys = [
      "sk-proj-abcdefghijklmnopqrstuvwx1234",
      "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
      "AKIAIOSFODNN7EXAMPLE",
      "ghp_" + "a1B2c3D4e5".repeat(3) + "F6g7H8",
      "xoxb-123456789012-abcdefABCDEF",
      "AIzaSyA1234567890abcdefghijklmnopqrstuv",
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
    ]
    for (const key of keys) expect(found(`key: ${key} ok`, "api-key")).toEqual([key])
    const token = "Zq8vR2mX9pL4tW7nK3jH6fD1sA5gB0cE"
    expect(found(`token ${token}`, "api-key")).toEqual([])
    expect(found(`token ${token}`, "api-key", "high")).toEqual([token])
    expect(found("see https://example.com/some/long/path/with_words_only", "api-key", "high")).toEqual([])
  })

  it("finds person names from given names, cues and titles", () => {
    expect(found("My name is Jane Doe and I need help.", "person-name")).toEqual(["Jane Doe"])
    expect(found("Dear Mrs. Poissonnier, thanks.", "person-name")).toEqual(["Poissonnier"])
    expect(found("Ask Emily R. Watson about it; Watson knows.", "person-name")).toEqual(["Emily R. Watson", "Watson"])
    expect(found("Will you come? The weather is nice in May.", "person-name")).toEqual([])
    expect(found("Entertainment Weekly lists it.", "person-name")).toEqual([])
    expect(found("Entertainment Weekly lists it.", "person-name", "high")).toEqual(["Entertainment Weekly"])
  })

  it("finds postal addresses: streets, units, boxes, postcodes", () => {
    expect(found("I live at 221B Baker Street, London.", "postal-address")).toEqual(["221B Baker Street"])
    expect(found("Send it to 1600 Pennsylvania Avenue NW", "postal-address")).toEqual(["1600 Pennsylvania Avenue"])
    expect(found("Friedhofstrasse 33\nSuite 979\nBern 3000", "postal-address")).toEqual([
      "Friedhofstrasse 33",
      "Suite 979",
      "3000"
    ])
    expect(found("P.O. Box 1234, Springfield", "postal-address")).toEqual(["P.O. Box 1234"])
    expect(found("She lives on Rue de Virton 38.", "postal-address")).toEqual(["Rue de Virton 38"])
    for (
      const plain of [
        "I have 3 cats and Windows 10 on 2 machines.",
        "I bought 3 Apples for 5 dollars.",
        "In 2019 Apple sold 5 million phones.",
        "Via Google Maps it takes 20 minutes.",
        "Top 20 Songs 5 Stars",
        "Meeting in Room 12 on Floor 3."
      ]
    ) expect(found(plain, "postal-address")).toEqual([])
  })

  it("returns spans sorted and never overlapping, keeping the more specific or longer", () => {
    const text = "Jane Doe <jane.doe@example.com>, card 4111 1111 1111 1111, phone +44 20 7946 0958, 12 Main Street"
    const spans = detectPii(text, ALL)
    for (let i = 1; i < spans.length; i++) expect(spans[i]!.start).toBeGreaterThanOrEqual(spans[i - 1]!.end)
    expect(spans.map((span) => [span.type, text.slice(span.start, span.end)])).toEqual([
      ["person-name", "Jane Doe"],
      ["email", "jane.doe@example.com"],
      ["credit-card", "4111 1111 1111 1111"],
      ["phone", "+44 20 7946 0958"],
      ["postal-address", "12 Main Street"]
    ])
  })

  it("counts offsets in UTF-16 units, past emoji and surrogate pairs", () => {
    const text = "👋🏽 hi 𝔘 mail me: ana@example.org 🙏"
    const [span] = detectPii(text, ["email"])
    expect(span).toEqual({
      type: "email",
      start: text.indexOf("ana@"),
      end: text.indexOf("ana@") + "ana@example.org".length
    })
    expect(text.slice(span!.start, span!.end)).toBe("ana@example.org")
  })

  it("detects only the types asked for", () => {
    expect(detectPii("a@b.co 192.168.0.1", ["ip-address"]).map((span) => span.type)).toEqual(["ip-address"])
    expect(detectPii("a@b.co", [])).toEqual([])
  })

  it("returns on 100,000-character hostile inputs", () => {
    const hostile = [
      "1 ".repeat(50_000),
      "a@".repeat(50_000),
      "9".repeat(100_000),
      "Abc ".repeat(25_000),
      "John Smith ".repeat(9_000),
      "1.".repeat(50_000),
      "ab:".repeat(33_000),
      "+1 (".repeat(25_000),
      "12 Main Street ".repeat(6_600),
      "aB3_".repeat(25_000)
    ]
    for (const text of hostile) expect(Array.isArray(detectPii(text, ALL, "high"))).toBe(true)
  })
})

describe("redactPii", () => {
  const text = "Mail john@example.com or call +44 20 7946 0958 now"
  const spans = detectPii(text, ["email", "phone"])

  it("puts placeholders", () => {
    expect(redactPii(text, spans, "placeholder")).toBe("Mail [EMAIL] or call [PHONE] now")
  })

  it("masks, keeping the shape", () => {
    expect(redactPii(text, spans, "mask")).toBe("Mail j***@e******.com or call +** ** **** 0958 now")
    const card = "4111 1111 1111 1111"
    expect(redactPii(card, detectPii(card, ["credit-card"]), "mask")).toBe("**** **** **** 1111")
    const name = "I am Jane Doe"
    expect(redactPii(name, detectPii(name, ["person-name"]), "mask")).toBe("I am J*** D**")
  })

  it("hashes to a short stable value, the same for the same value however written", () => {
    const redacted = redactPii(text, spans, "hash")
    expect(redacted).toMatch(/^Mail \[EMAIL:[0-9a-f]{6}\] or call \[PHONE:[0-9a-f]{6}\] now$/)
    const again = "JOHN@example.com, +44-20-7946-0958"
    expect(redactPii(again, detectPii(again, ["email", "phone"]), "hash")).toBe(
      redacted.slice(5, 19) + ", " + redacted.slice(28, 42)
    )
    const other = "jim@example.com"
    expect(redactPii(other, detectPii(other, ["email"]), "hash")).not.toBe(redacted.slice(5, 19))
  })

  it("removes, leaving one space between the neighbours", () => {
    expect(redactPii(text, spans, "remove")).toBe("Mail or call now")
  })

  it("skips overlapping or out-of-range spans", () => {
    expect(
      redactPii("abcdef", [{ type: "email", start: 0, end: 3 }, { type: "phone", start: 2, end: 4 }, {
        type: "ssn",
        start: 5,
        end: 9
      }], "placeholder")
    ).toBe("[EMAIL]def")
  })
})

describe("piiLabel", () => {
  it("names every type", () => {
    expect(ALL.map(piiLabel)).toEqual([
      "EMAIL",
      "PHONE",
      "CREDIT_CARD",
      "IBAN",
      "SSN",
      "IP_ADDRESS",
      "ADDRESS",
      "PERSON",
      "DATE_OF_BIRTH",
      "PASSPORT",
      "API_KEY",
      "NATIONAL_ID"
    ])
  })
})
