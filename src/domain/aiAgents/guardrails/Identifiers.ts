/**
 * Matchers for personal data with a fixed shape: e-mail addresses, payment
 * cards (Luhn and issuer prefixes), IBANs (country length and mod 97), US
 * social security numbers, passport numbers and API keys. Every pattern
 * starts only where its character class starts (a look-behind) and repeats
 * a bounded number of times, so each runs in linear time on any input.
 */
import { ibanLength, ibanValid } from "./Iban.js"
import { luhnValid } from "./Luhn.js"
import { rangesOf, saysBefore, type Sensitivity, type TextRange } from "./TextRange.js"

const EMAIL = /(?<![\w.%+-])[\w.%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}(?![\w-])/g

/** E-mail addresses. */
export const emails = (text: string): Array<TextRange> =>
  rangesOf(text, EMAIL, (match) => !match[0].startsWith(".") && !match[0].includes(".."))

const CARD = /(?<![\w-])\d(?:[ -]?\d){11,18}(?![\d-]?\d)/g
const CARD_CONTEXT = /\b(?:card|cc|credit|debit|visa|mastercard|maestro|amex)\b/i
// Visa, Mastercard (51-55, 2221-2720), Amex, Diners, Discover, JCB (also 1800 and 2131), UnionPay, Maestro.
const ISSUER = /^(?:4|5[0-8]|2[2-7]|3[0-9]|6|1800|2131)/

/** Payment card numbers: 13 to 19 digits (12 after words like "card" or at `high`) in groups of 3 to 6, an issuer's prefix, Luhn. */
export const paymentCards = (text: string, sensitivity: Sensitivity): Array<TextRange> =>
  rangesOf(text, CARD, (match) => {
    const raw = match[0]
    const digits = raw.replace(/[ -]/g, "")
    const min = sensitivity === "high" || saysBefore(text, match.index, CARD_CONTEXT, 30) ? 12 : 13
    if (digits.length < min || digits.length > 19) return false
    if (raw.includes(" ") && raw.includes("-")) return false
    if (raw.length > digits.length && raw.split(/[ -]/).some((group) => group.length < 3 || group.length > 6)) {
      return false
    }
    return ISSUER.test(digits) && luhnValid(digits) && !/^(\d)\1+$/.test(digits)
  })

const IBAN_START = /(?<![A-Za-z0-9])[A-Za-z]{2}\d{2}(?= ?[A-Za-z0-9])/g

/** IBANs, compact or in groups of four: the country's length and the mod-97 check. */
export const ibans = (text: string): Array<TextRange> =>
  rangesOf(text, IBAN_START, (match) => {
    const length = ibanLength(match[0].slice(0, 2).toUpperCase())
    if (length === undefined) return false
    let compact = match[0].toUpperCase()
    let end = match.index + 4
    while (compact.length < length && end < text.length) {
      const char = text[end]!
      if (/[A-Za-z0-9]/.test(char)) compact += char.toUpperCase()
      else if (char !== " " || !/[A-Za-z0-9]/.test(text[end + 1] ?? "")) break
      end++
    }
    if (compact.length !== length || /[A-Za-z0-9]/.test(text[end] ?? "")) return false
    return ibanValid(compact) ? { start: match.index, end } : false
  })

const SSN_DASHED = /(?<![\w-])(\d{3})([- ])(\d{2})\2(\d{4})(?![\d-]?\d)/g
const SSN_PLAIN = /(?<![\w-])(\d{3})(\d{2})(\d{4})(?![\d-]?\d)/g
const SSN_CONTEXT = /\b(?:ssn|ss#|social security|social sec|soc\.? sec|sin)\b/i

const ssnValid = (area: string, group: string, serial: string): boolean =>
  area !== "000" && area !== "666" && area[0] !== "9" && group !== "00" && serial !== "0000" &&
  !(area === "123" && group === "45" && serial === "6789")

/**
 * US social security numbers that the SSA could issue (area not 000, 666 or
 * 9xx; group not 00; serial not 0000; not the advertising number 123-45-6789). Grouped with dashes or spaces they
 * need words like "SSN" nearby at `low`; nine bare digits need them below `high`.
 */
export const socialSecurityNumbers = (text: string, sensitivity: Sensitivity): Array<TextRange> => [
  ...rangesOf(text, SSN_DASHED, (match) =>
    ssnValid(match[1]!, match[3]!, match[4]!) &&
    (sensitivity !== "low" || saysBefore(text, match.index, SSN_CONTEXT, 60))),
  ...rangesOf(text, SSN_PLAIN, (match) =>
    ssnValid(match[1]!, match[2]!, match[3]!) &&
    (sensitivity === "high" || saysBefore(text, match.index, SSN_CONTEXT, 60)))
]

const PASSPORT_CONTEXT = /passport|passeport|reisepass|pasaporte|passaporto/i
const PASSPORT_NUMBER = /(?<![A-Za-z0-9])(?:[A-Za-z]{1,2}\d{6,8}|\d{8,9}|[A-Za-z]\d[A-Za-z0-9]{5,7})(?![A-Za-z0-9])/g

/** Passport numbers: one to two letters and digits, or 8 to 9 digits, just after the word passport. */
export const passportNumbers = (text: string): Array<TextRange> =>
  rangesOf(
    text,
    PASSPORT_NUMBER,
    (match) => /\d{5}/.test(match[0]) && saysBefore(text, match.index, PASSPORT_CONTEXT, 40)
  )

const API_KEY = new RegExp(
  "(?<![\\w-])(?:" + [
    "sk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,200}",
    "(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,200}",
    "(?:AKIA|ASIA)[0-9A-Z]{16}",
    "gh[pousr]_[A-Za-z0-9]{36,255}",
    "github_pat_[A-Za-z0-9_]{22,255}",
    "glpat-[A-Za-z0-9_-]{20,100}",
    "xox[bpaors]-[A-Za-z0-9-]{10,200}",
    "AIza[0-9A-Za-z_-]{35}",
    "eyJ[A-Za-z0-9_-]{8,2000}\\.eyJ[A-Za-z0-9_-]{8,4000}\\.[A-Za-z0-9_-]{8,2000}"
  ].join("|") + ")(?![\\w-])",
  "g"
)
const TOKEN = /(?<![\w+/=-])[A-Za-z0-9_+/=-]{24,512}(?![\w+/=-])/g

const entropy = (token: string): number => {
  const counts = new Map<string, number>()
  for (const char of token) counts.set(char, (counts.get(char) ?? 0) + 1)
  let bits = 0
  for (const count of counts.values()) bits -= (count / token.length) * Math.log2(count / token.length)
  return bits
}

/** API keys and tokens with a well-known prefix, JWTs, and at `high` any long token of high entropy. */
export const apiKeys = (text: string, sensitivity: Sensitivity): Array<TextRange> => [
  ...rangesOf(text, API_KEY),
  ...(sensitivity === "high"
    ? rangesOf(
      text,
      TOKEN,
      (match) => /\d/.test(match[0]) && /[a-z]/.test(match[0]) && /[A-Z]/.test(match[0]) && entropy(match[0]) >= 4
    )
    : [])
]
