import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { PiiType } from "../../../../src/domain/aiAgents/GuardrailRule.js"
import { piiSummary } from "../../../../src/domain/aiAgents/guardrails/GuardrailCheck.js"
import {
  aadhaarValid,
  belgianNumberValid,
  bsnValid,
  chinaIdValid,
  cpfValid,
  dniValid,
  hetuValid,
  nhsValid,
  nirValid,
  personnummerValid,
  peselValid,
  sinValid
} from "../../../../src/domain/aiAgents/guardrails/NationalIdChecks.js"
import { detectPii, redactPii } from "../../../../src/domain/aiAgents/guardrails/PiiDetector.js"
import type { Sensitivity } from "../../../../src/domain/aiAgents/guardrails/TextRange.js"
import { verhoeffValid } from "../../../../src/domain/aiAgents/guardrails/Verhoeff.js"
import * as made from "./NationalIdSamples.js"

/** The national ids found in a text. */
const ids = (text: string, sensitivity?: Sensitivity) =>
  detectPii(text, ["national-id"], sensitivity).map((span) => text.slice(span.start, span.end))

const NHS = made.nhs("943476591")!
const PESEL = made.pesel("8503150456")
const CPF = made.cpf("123456789")
const AADHAAR = made.aadhaar("23456789012")
const SIN = made.sin("13045428")
const STEUER_ID = made.steuerId("8609574271")
const NIR = made.nir("1850578006084")
const SWEDISH = made.personnummer("811218987")

// [scheme, text, the number as found]: numbers made up here, and the schemes' published specimens (BSN 111222333,
// DNI 12345678Z, HETU 131052-308T).
const FOUND_AT_MEDIUM: ReadonlyArray<readonly [string, string, string]> = [
  ["UK NHS", `NHS number ${NHS}`, NHS],
  ["UK NHS grouped", "My NHS no. is 943 476 5919.", "943 476 5919"],
  ["UK National Insurance", "NI number AB 12 34 56 C, thanks", "AB 12 34 56 C"],
  ["UK National Insurance compact", "it is CE123456A", "CE123456A"],
  ["Netherlands BSN (specimen)", "Mijn BSN is 111222333.", "111222333"],
  ["Netherlands BSN dotted", "nummer 1112.22.333", "1112.22.333"],
  ["Spain DNI (specimen)", "con el 12345678Z", "12345678Z"],
  ["Spain DNI dotted", "DNI: 12.345.678-Z", "12.345.678-Z"],
  ["Spain NIE", `NIE ${made.nie("X", "1234567")}`, made.nie("X", "1234567")],
  ["Spain NIE from Y", `mi número ${made.nie("Y", "7654321")}`, made.nie("Y", "7654321")],
  ["France NIR", `numéro ${NIR}`, NIR],
  ["France NIR grouped", `n° 1 85 05 78 006 084 ${NIR.slice(13)}`, `1 85 05 78 006 084 ${NIR.slice(13)}`],
  ["France NIR, Corsica", `sécu ${made.nir("290122A004012")}`, made.nir("290122A004012")],
  ["Italy codice fiscale", "il mio è RSSMRA85T10A562S", made.codiceFiscale("RSSMRA85T10A562")],
  [
    "Italy codice fiscale, omocodia",
    `CF ${made.codiceFiscale("RSSMRA85T10A56N")}`,
    made.codiceFiscale("RSSMRA85T10A56N")
  ],
  [
    "Belgium national number",
    `${made.belgian("850730", "033", false)} op de kaart`,
    made.belgian("850730", "033", false)
  ],
  [
    "Belgium national number dotted",
    `nummer 85.07.30-033.${made.belgian("850730", "033", false).slice(9)}`,
    `85.07.30-033.${made.belgian("850730", "033", false).slice(9)}`
  ],
  ["Belgium, born from 2000", `nr ${made.belgian("050730", "034", true)}`, made.belgian("050730", "034", true)],
  ["Sweden personnummer", `${SWEDISH.slice(0, 6)}-${SWEDISH.slice(6)}`, `${SWEDISH.slice(0, 6)}-${SWEDISH.slice(6)}`],
  [
    "Sweden personnummer, over 100",
    `${SWEDISH.slice(0, 6)}+${SWEDISH.slice(6)}`,
    `${SWEDISH.slice(0, 6)}+${SWEDISH.slice(6)}`
  ],
  [
    "Sweden personnummer, 12 digits",
    `19${SWEDISH.slice(0, 6)}-${SWEDISH.slice(6)}`,
    `19${SWEDISH.slice(0, 6)}-${SWEDISH.slice(6)}`
  ],
  ["Sweden personnummer bare", `personnummer ${SWEDISH}`, SWEDISH],
  ["Finland HETU (specimen)", "hetu 131052-308T", "131052-308T"],
  ["Finland HETU, from 2000", `${made.hetu("010203", "A", "123")}`, made.hetu("010203", "A", "123")],
  ["Denmark CPR", "CPR-nr. 010190-1234", "010190-1234"],
  ["Poland PESEL", `PESEL ${PESEL}`, PESEL],
  ["Poland PESEL, born from 2000", `PESEL: ${made.pesel("0523150123")}`, made.pesel("0523150123")],
  ["Brazil CPF", `CPF ${CPF.replace(/(\d{3})(\d{3})(\d{3})(\d{2})/, "$1.$2.$3-$4")}`, "123.456.789-09"],
  ["Brazil CPF bare", `meu CPF é ${CPF}`, CPF],
  ["India Aadhaar", `Aadhaar ${AADHAAR}`, AADHAAR],
  [
    "India Aadhaar grouped",
    AADHAAR.replace(/(\d{4})(\d{4})(\d{4})/, "$1 $2 $3"),
    AADHAAR.replace(/(\d{4})(\d{4})(\d{4})/, "$1 $2 $3")
  ],
  ["China resident identity card", `身份证 ${made.chinaId("11010519491231002")}`, made.chinaId("11010519491231002")],
  ["Canada SIN", `My SIN is ${SIN}`, SIN],
  [
    "Canada SIN grouped",
    `social insurance number: ${SIN.replace(/(\d{3})(\d{3})(\d{3})/, "$1 $2 $3")}`,
    SIN.replace(/(\d{3})(\d{3})(\d{3})/, "$1 $2 $3")
  ],
  ["Germany Steuer-IdNr", `Steuer-ID ${STEUER_ID}`, STEUER_ID],
  [
    "Germany Steuer-IdNr grouped",
    `${STEUER_ID.replace(/(\d{2})(\d{3})(\d{3})(\d{3})/, "$1 $2 $3 $4")}`,
    STEUER_ID.replace(/(\d{2})(\d{3})(\d{3})(\d{3})/, "$1 $2 $3 $4")
  ]
]

/** The number with its last character (its check, for every scheme here) changed. */
const broken = (value: string): string => {
  const last = value.at(-1)!
  const changed = /\d/.test(last) ? String((Number(last) + 1) % 10) : last === "X" ? "0" : last === "Z" ?
    "A" :
    String.fromCharCode(last.charCodeAt(0) + 1)
  return value.slice(0, -1) + changed
}

describe("national-id", () => {
  it.each(FOUND_AT_MEDIUM)("finds %s", (_, text, number) => {
    expect(ids(text)).toEqual([number])
  })

  it("takes no number whose check is wrong, even after its cue and at high", () => {
    for (const [scheme, text, number] of FOUND_AT_MEDIUM) {
      if (/National Insurance|Denmark/.test(scheme)) continue // no check to break
      const wrong = text.replace(number, broken(number))
      expect({ scheme, found: ids(wrong, "high") }).toEqual({ scheme, found: [] })
    }
  })

  it("takes no number whose date does not exist, though its check holds", () => {
    for (
      const text of [
        `HETU ${made.hetu("310252", "-", "308")}`, // 31 February
        `PESEL ${made.pesel("8513150123")}`, // month 13
        `身份证 ${made.chinaId("11010519490230002")}`, // 30 February
        `personnummer ${made.personnummer("811318987")}`, // month 13
        `rijksregisternummer ${made.belgian("851330", "033", false)}`, // month 13
        `codice fiscale ${made.codiceFiscale("RSSMRA85B30A562")}`, // 30 February
        `NIR ${made.nir("1851378006084")}`, // month 13
        "CPR 310290-1234" // 31 February
      ]
    ) expect({ text, found: ids(text, "high") }).toEqual({ text, found: [] })
  })

  it("takes no number with a prefix never issued, nor one digit repeated", () => {
    for (
      const text of [
        "NI number DA 12 34 56 C", // D first
        "NI number AO 12 34 56 C", // O second
        "NI number GB 12 34 56 C", // unallocated prefix
        "NI number AB 12 34 56 E", // suffix past D
        `SIN ${made.sin("04645428")}`, // 0: fictitious (the published sample 046 454 286)
        `SIN ${made.sin("81234567")}`, // 8: business numbers
        `Aadhaar ${made.aadhaar("12345678901")}`, // starts with 1
        `Aadhaar ${made.aadhaar("02345678901")}`, // starts with 0
        `Steuer-ID ${made.steuerId("1234567890")}`, // no digit repeated
        `Steuer-ID ${made.steuerId("1112345678")}`, // one digit three times in a row
        "CPF 111.111.111-11", // passes both checks, one digit repeated
        "NHS 000 000 0000",
        "BSN 000000000"
      ]
    ) expect({ text, found: ids(text, "high") }).toEqual({ text, found: [] })
  })

  it("asks bare digits for a cue below high, written forms for one at low, and nothing of unmistakable ones", () => {
    expect(ids("it is 111222333")).toEqual([])
    expect(ids("it is 111222333", "high")).toEqual(["111222333"])
    expect(ids("my BSN: 111222333", "low")).toEqual(["111222333"])
    expect(ids("call 943 476 5919")).toEqual([])
    expect(ids("NHS 943 476 5919", "low")).toEqual(["943 476 5919"])
    expect(ids("con el 12345678Z", "low")).toEqual([])
    expect(ids("DNI 12345678Z", "low")).toEqual(["12345678Z"])
    expect(ids("il mio è RSSMRA85T10A562S", "low")).toEqual(["RSSMRA85T10A562S"])
    expect(ids("hi 131052-308T", "low")).toEqual(["131052-308T"])
    expect(ids("your national identity number 111222333")).toEqual(["111222333"])
    // Denmark: no check since 2007, so never without a cue.
    expect(ids("it is 010190-1234", "high")).toEqual([])
    // UK National Insurance in lower case: a cue below high.
    expect(ids("code ab123456c")).toEqual([])
    expect(ids("national insurance ab123456c")).toEqual(["ab123456c"])
    // A cue of another scheme does not help.
    expect(ids(`PESEL ${SIN}`)).toEqual([])
  })

  it("finds nothing in ordinary numbers: prices, orders, phones, dates, IBANs, cards", () => {
    const text = [
      "Your order 4417829301 shipped on 2024-03-15 and costs $1,299.99 (or €1.299,99).",
      "Call us on +44 20 7946 0958 or (415) 555-0132, ext. 204, Mon-Fri 09:00-17:30, or 020 7946 0958.",
      "Invoice INV-2024-000123, tracking 1Z999AA10123456784, ticket #88213, order 20240315-0042.",
      "Pay to IBAN GB82 WEST 1234 5698 7654 32 or DE89370400440532013000, or card 4111 1111 1111 1111.",
      "We met on 12/03/2025 at 10:30; the meeting ID is 845 2931 7730; 15.03.2024 then 2024.03.15.",
      "Version 2.14.3 released; build 20240315.2 took 1843 ms; 192.168.0.1 answered.",
      "Room 4521, postcode SW1A 1AA, 1600 Pennsylvania Avenue NW, Washington DC 20500.",
      "Population 67,081,234 in 2023; GDP 2.78 trillion; 1 234 567 visitors.",
      "ISBN 978-3-16-148410-0, EAN 4006381333931, SKU AB-1234-XY, serial 12345678."
    ].join("\n")
    expect(ids(text)).toEqual([])
    expect(ids(text, "low")).toEqual([])
    const types = detectPii(text, PiiType.literals).map((span) => span.type)
    expect(types).not.toContain("national-id")
    expect(types).toEqual(expect.arrayContaining(["iban", "credit-card", "phone"]))
  })

  it("wins over an SSN or a phone it overlaps (a checksum is more specific than a shape)", () => {
    const text = `My SIN is ${SIN}`
    expect(detectPii(text, ["ssn", "national-id"]).map((span) => span.type)).toEqual(["national-id"])
    const nhs = "NHS number 943 476 5919"
    expect(detectPii(nhs, ["phone", "national-id"]).map((span) => span.type)).toEqual(["national-id"])
    expect(detectPii(nhs, ["phone"]).map((span) => span.type)).toEqual(["phone"])
  })

  it("is redacted as the other types are", () => {
    const text = "BSN 1112.22.333 and hetu 131052-308T."
    const spans = detectPii(text, ["national-id"])
    expect(redactPii(text, spans, "placeholder")).toBe("BSN [NATIONAL_ID] and hetu [NATIONAL_ID].")
    expect(redactPii(text, spans, "mask")).toBe("BSN ****.*2.333 and hetu ******-308T.")
    expect(redactPii(text, spans, "remove")).toBe("BSN and hetu .")
    const hashed = redactPii(text, spans, "hash")
    expect(hashed).toMatch(/^BSN \[NATIONAL_ID:[0-9a-f]{6}\] and hetu \[NATIONAL_ID:[0-9a-f]{6}\]\.$/)
    const compact = "BSN 111222333"
    expect(redactPii(compact, detectPii(compact, ["national-id"]), "hash")).toBe(hashed.slice(0, 24))
    expect(piiSummary(spans)).toBe("2 national identity numbers")
  })
})

describe("national-id checks", () => {
  it("Verhoeff passes the published vector and fails its neighbours", () => {
    expect(verhoeffValid("2363")).toBe(true)
    expect(["2364", "2336", "3263"].map(verhoeffValid)).toEqual([false, false, false])
  })

  const digits = (length: number) =>
    fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length, maxLength: length }).map((all) => all.join(""))

  // Made-up numbers of random bodies (dates fixed where the number carries one), each with the scheme's validator.
  const SCHEMES: ReadonlyArray<readonly [string, fc.Arbitrary<string>, (number: string) => boolean]> = [
    ["NHS", digits(9).map(made.nhs).filter((n): n is string => n !== undefined && !/^(\d)\1+$/.test(n)), nhsValid],
    ["BSN", digits(8).map(made.bsn).filter((n): n is string => n !== undefined && !/^(\d)\1+$/.test(n)), bsnValid],
    ["DNI", digits(8).filter((body) => !/^(\d)\1+$/.test(body)).map(made.dni), dniValid],
    ["NIR", digits(6).filter((tail) => !/^000|000$/.test(tail)).map((tail) => made.nir(`1850578${tail}`)), nirValid],
    [
      "Belgium",
      fc.integer({ min: 1, max: 997 }).map((serial) => made.belgian("850730", String(serial).padStart(3, "0"), false)),
      belgianNumberValid
    ],
    ["Sweden", digits(3).filter((n) => n !== "000").map((n) => made.personnummer(`811218${n}`)), personnummerValid],
    [
      "Finland",
      fc.integer({ min: 2, max: 999 }).map((n) => made.hetu("131052", "-", String(n).padStart(3, "0"))),
      hetuValid
    ],
    ["PESEL", digits(5).map((tail) => made.pesel(`850315${tail.slice(1)}`)), peselValid],
    ["CPF", digits(9).map(made.cpf).filter((n) => !/^(\d)\1+$/.test(n)), cpfValid],
    ["Aadhaar", digits(10).map((body) => made.aadhaar(`7${body}`)), aadhaarValid],
    ["China", digits(3).map((n) => made.chinaId(`11010519850315${n}`)), chinaIdValid],
    ["SIN", digits(7).map((body) => made.sin(`4${body}`)), sinValid]
  ]

  it.each(SCHEMES)(
    "%s: every number made by the rules passes, and no change of one digit does",
    (_, numbers, valid) => {
      fc.assert(
        fc.property(numbers, fc.nat(), fc.integer({ min: 1, max: 9 }), (number, at, step) => {
          expect(valid(number)).toBe(true)
          const positions = [...number].flatMap((char, index) => /\d/.test(char) ? [index] : [])
          const index = positions[at % positions.length]!
          const changed = number.slice(0, index) + ((Number(number[index]) + step) % 10) + number.slice(index + 1)
          expect(valid(changed)).toBe(false)
        }),
        { numRuns: 200, seed: 14 }
      )
    }
  )

  const rate = (texts: ReadonlyArray<string>, sensitivity: Sensitivity) =>
    texts.filter((text) => ids(`ref ${text} ok`, sensitivity).length > 0).length / texts.length

  // Measured on 20,000 runs each: at medium at most 0.42% (11 digits: Belgium's date and mod 97), 0.24% (15: NIR),
  // 0.04% (12), none at other lengths or at low; at high 16% (9 digits), 10% (10), 7.7% (12), 3.1% (11).
  it("random digit runs of 9 to 18 digits rarely fire", () => {
    for (let length = 9; length <= 18; length++) {
      const runs = fc.sample(digits(length), { numRuns: 4000, seed: length })
      expect({ length, low: rate(runs, "low") }).toEqual({ length, low: 0 })
      expect(rate(runs, "medium")).toBeLessThanOrEqual(0.008)
      expect(rate(runs, "high")).toBeLessThanOrEqual(0.2)
    }
  })

  // Measured on 20,000 each at low: 1.1% dotted CPF (two check digits in their own form), 0.4% dotted Belgian,
  // 0.15% 6-4 (a HETU whose control is a digit), none for the others.
  it("random digits in national written forms rarely fire at low", () => {
    const groups = (...lengths: ReadonlyArray<number>) => (separators: string) =>
      fc.tuple(...lengths.map(digits)).map((parts) =>
        parts.map((part, index) => part + (separators[index] ?? "")).join("")
      )
    const forms = [
      groups(3, 3, 3)("  "),
      groups(3, 3, 4)("--"),
      groups(4, 2, 3)(".."),
      groups(6, 4)("-"),
      groups(4, 4, 4)("  "),
      groups(2, 3, 3, 3)("   "),
      groups(3, 3, 3, 2)("..-"),
      groups(2, 2, 2, 3, 2)("..-."),
      digits(8).map((body) => `${body}Q`)
    ]
    for (const form of forms) {
      const texts = fc.sample(form, { numRuns: 4000, seed: 14 })
      expect({ example: texts[0], rate: rate(texts, "low") <= 0.015 }).toEqual({ example: texts[0], rate: true })
    }
  })
})
