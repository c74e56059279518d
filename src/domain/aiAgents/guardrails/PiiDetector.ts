/**
 * Personal data in a text (`pii` guardrail rules): where it is, by type, and
 * the text with it redacted. Pure and synchronous; every matcher is linear
 * in the text's length. Offsets are UTF-16 code units, as JavaScript strings index.
 */
import { createHash } from "node:crypto"
import type { PiiRedaction, PiiType } from "../GuardrailRule.js"
import { birthDates } from "./BirthDates.js"
import { apiKeys, emails, ibans, passportNumbers, paymentCards, socialSecurityNumbers } from "./Identifiers.js"
import { ipAddresses } from "./IpAddresses.js"
import { nationalIds } from "./NationalIds.js"
import { personNames } from "./PersonNames.js"
import { phoneNumbers } from "./PhoneNumbers.js"
import { postalAddresses } from "./PostalAddresses.js"
import type { Sensitivity, TextRange } from "./TextRange.js"

/** One piece of personal data: its type and where it is (UTF-16 offsets, `end` exclusive). */
export interface PiiSpan {
  readonly type: PiiType
  readonly start: number
  readonly end: number
}

const MATCHERS: Record<PiiType, (text: string, sensitivity: Sensitivity) => Array<TextRange>> = {
  "api-key": apiKeys,
  email: emails,
  iban: ibans,
  "credit-card": paymentCards,
  "ip-address": ipAddresses,
  ssn: socialSecurityNumbers,
  "national-id": nationalIds,
  passport: passportNumbers,
  "date-of-birth": birthDates,
  phone: phoneNumbers,
  "postal-address": postalAddresses,
  "person-name": personNames
}

// On overlap the more specific type wins (a checksum or a prefix beats a shape, a shape beats a heuristic), then the longer span.
const SPECIFICITY: Record<PiiType, number> = {
  "api-key": 0,
  email: 0,
  iban: 0,
  "credit-card": 0,
  "ip-address": 0,
  "national-id": 0,
  ssn: 1,
  passport: 1,
  "date-of-birth": 1,
  phone: 1,
  "postal-address": 2,
  "person-name": 2
}

/** Every match of the given types, sorted by start, never overlapping (on overlap keep the longer / the more specific). */
export const detectPii = (
  text: string,
  types: ReadonlyArray<PiiType>,
  sensitivity: Sensitivity = "medium"
): ReadonlyArray<PiiSpan> => {
  const candidates: Array<PiiSpan> = []
  for (const type of new Set(types)) {
    for (const range of MATCHERS[type](text, sensitivity)) {
      if (range.end > range.start) candidates.push({ type, start: range.start, end: range.end })
    }
  }
  candidates.sort((a, b) =>
    SPECIFICITY[a.type] - SPECIFICITY[b.type] || (b.end - b.start) - (a.end - a.start) || a.start - b.start
  )
  const kept: Array<PiiSpan> = []
  for (const candidate of candidates) {
    if (!overlapsAny(kept, candidate)) insertSorted(kept, candidate)
  }
  return kept
}

const firstEndingAfter = (spans: ReadonlyArray<PiiSpan>, offset: number): number => {
  let low = 0
  let high = spans.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (spans[middle]!.end <= offset) low = middle + 1
    else high = middle
  }
  return low
}

const overlapsAny = (sorted: ReadonlyArray<PiiSpan>, span: PiiSpan): boolean => {
  const index = firstEndingAfter(sorted, span.start)
  return index < sorted.length && sorted[index]!.start < span.end
}

const insertSorted = (sorted: Array<PiiSpan>, span: PiiSpan): void => {
  sorted.splice(firstEndingAfter(sorted, span.start), 0, span)
}

const LABELS: Record<PiiType, string> = {
  email: "EMAIL",
  phone: "PHONE",
  "credit-card": "CREDIT_CARD",
  iban: "IBAN",
  ssn: "SSN",
  "ip-address": "IP_ADDRESS",
  "postal-address": "ADDRESS",
  "person-name": "PERSON",
  "date-of-birth": "DATE_OF_BIRTH",
  passport: "PASSPORT",
  "api-key": "API_KEY",
  "national-id": "NATIONAL_ID"
}

/** The placeholder word of a type: EMAIL, PHONE, CREDIT_CARD, IBAN, SSN, IP_ADDRESS, ADDRESS, PERSON, DATE_OF_BIRTH, PASSPORT, API_KEY, NATIONAL_ID. */
export const piiLabel = (type: PiiType): string => LABELS[type]

// Types written with separators that do not change the value: "4111 1111…" and "4111-1111…" hash alike.
const COMPACTED: ReadonlySet<PiiType> = new Set(["phone", "credit-card", "iban", "ssn", "national-id"])
const KEEP_LAST_FOUR: ReadonlySet<PiiType> = new Set(["phone", "credit-card", "iban", "ssn", "passport", "national-id"])

const normalised = (type: PiiType, value: string): string =>
  COMPACTED.has(type) ? value.replace(/[^\p{L}\p{N}]/gu, "").toUpperCase() : value.trim().toLowerCase()

const hashed = (type: PiiType, value: string): string =>
  `[${piiLabel(type)}:${createHash("sha256").update(`${type}:${normalised(type, value)}`).digest("hex").slice(0, 6)}]`

const maskWords = (value: string): string =>
  value.replace(/([\p{L}\p{N}])([\p{L}\p{N}]*)/gu, (_, first: string, rest: string) => first + "*".repeat(rest.length))

const masked = (type: PiiType, value: string): string => {
  if (type === "email") {
    const at = value.lastIndexOf("@")
    const dot = value.lastIndexOf(".")
    return maskWords(value.slice(0, dot > at ? dot : value.length)) + (dot > at ? value.slice(dot) : "")
  }
  if (KEEP_LAST_FOUR.has(type)) {
    let keep = 4
    const chars = [...value]
    for (let i = chars.length - 1; i >= 0; i--) {
      if (!/[\p{L}\p{N}]/u.test(chars[i]!)) continue
      if (keep > 0) keep--
      else chars[i] = "*"
    }
    return chars.join("")
  }
  return maskWords(value)
}

const replacement = (type: PiiType, value: string, redaction: PiiRedaction): string => {
  switch (redaction) {
    case "placeholder":
      return `[${piiLabel(type)}]`
    case "mask":
      return masked(type, value)
    case "hash":
      return hashed(type, value)
    case "remove":
      return ""
  }
}

/** The text with each span replaced as `redaction` says. */
export const redactPii = (text: string, spans: ReadonlyArray<PiiSpan>, redaction: PiiRedaction): string => {
  const ordered = [...spans].sort((a, b) => a.start - b.start || b.end - a.end)
  let out = ""
  let at = 0
  for (const span of ordered) {
    if (span.start < at || span.end > text.length || span.end <= span.start) continue
    out += text.slice(at, span.start)
    const value = replacement(span.type, text.slice(span.start, span.end), redaction)
    // A removed word leaves one space between its neighbours, not two.
    at = value === "" && /\s$/.test(out) && /^\s/.test(text.slice(span.end)) ? span.end + 1 : span.end
    out += value
  }
  return out + text.slice(at)
}
