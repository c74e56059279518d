/**
 * The validity rules of national identity numbers, one function per scheme:
 * its check digit or letter, the date of birth it carries, its allocation
 * rules (forbidden prefixes, serials never issued). Each takes the number
 * compact (separators removed) and in upper case; the Finnish HETU keeps its
 * century sign, which is part of the number.
 */
import { luhnValid } from "./Luhn.js"
import { verhoeffValid } from "./Verhoeff.js"

const digitAt = (text: string, index: number): number => text.charCodeAt(index) - 48

const allSame = (text: string): boolean => /^(.)\1*$/.test(text)

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** Whether a day exists; for a two-digit year of unknown century pass `2000 + yy` (leap whenever any century is). */
const isDate = (year: number, month: number, day: number): boolean => {
  if (month < 1 || month > 12 || day < 1) return false
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  return day <= (month === 2 && leap ? 29 : DAYS[month - 1]!)
}

const twoDigits = (text: string, index: number): number => digitAt(text, index) * 10 + digitAt(text, index + 1)

/** UK NHS number: 10 digits, weights 10 to 2, check 11 − (sum mod 11), a check of 10 is never issued. */
export const nhsValid = (n: string): boolean => {
  if (!/^\d{10}$/.test(n) || allSame(n)) return false
  let sum = 0
  for (let i = 0; i < 9; i++) sum += digitAt(n, i) * (10 - i)
  const check = (11 - (sum % 11)) % 11
  return check !== 10 && check === digitAt(n, 9)
}

/** Netherlands BSN: 9 digits passing the 11-proof (weights 9 to 2, and −1 for the last). */
export const bsnValid = (n: string): boolean => {
  if (!/^\d{9}$/.test(n) || allSame(n)) return false
  let sum = -digitAt(n, 8)
  for (let i = 0; i < 8; i++) sum += digitAt(n, i) * (9 - i)
  return sum % 11 === 0
}

const DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"

/** Spain DNI: 8 digits and the control letter of their value mod 23. */
export const dniValid = (n: string): boolean =>
  /^\d{8}[A-Z]$/.test(n) && !allSame(n.slice(0, 8)) && DNI_LETTERS[Number(n.slice(0, 8)) % 23] === n[8]

/** Spain NIE: X, Y or Z (read as 0, 1, 2), 7 digits and the DNI's control letter. */
export const nieValid = (n: string): boolean =>
  /^[XYZ]\d{7}[A-Z]$/.test(n) && dniValid(String("XYZ".indexOf(n[0]!)) + n.slice(1))

/**
 * France NIR (numéro de sécurité sociale): sex (1, 2; 7, 8 for provisional
 * numbers), year, month (01-12, or 20, 30-42, 50-99 when unknown),
 * department (2A and 2B for Corsica, read as 19 and 18), commune, order, and
 * the key 97 − (first 13 digits mod 97).
 */
export const nirValid = (n: string): boolean => {
  const parts = /^([1278]\d{4})(\d{2}|2A|2B)(\d{3})(\d{3})(\d{2})$/.exec(n)
  if (parts === null) return false
  const [, head, department, commune, order, key] = parts as unknown as [string, string, string, string, string, string]
  const month = twoDigits(head, 3)
  if (!((month >= 1 && month <= 12) || month === 20 || (month >= 30 && month <= 42) || month >= 50)) return false
  if (department === "00" || commune === "000" || order === "000") return false
  const numeric = head + (department === "2A" ? "19" : department === "2B" ? "18" : department) + commune + order
  return 97 - (Number(numeric) % 97) === Number(key)
}

const MONTH_LETTERS = "ABCDEHLMPRST"
const OMOCODE_LETTERS = "LMNPQRSTUV"
const OMOCODE_POSITIONS: ReadonlySet<number> = new Set([6, 7, 9, 10, 12, 13, 14])
// The value of a character in an odd position (1st, 3rd, ...): digits 0-9 as letters A-J.
const ODD_VALUES = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23]
const CODICE_FISCALE = /^[A-Z]{6}[\dLMNP-V]{2}[ABCDEHLMPRST][\dLMNP-V]{2}[A-Z][\dLMNP-V]{3}[A-Z]$/

/**
 * Italy codice fiscale: 6 letters of the names, year, month letter, day (plus
 * 40 for women), municipality, and the check letter; digits replaced by
 * letters (omocodia) are read back.
 */
export const codiceFiscaleValid = (n: string): boolean => {
  if (!CODICE_FISCALE.test(n)) return false
  const decoded = [...n].map((char, index) =>
    OMOCODE_POSITIONS.has(index) && char >= "A" ? String(OMOCODE_LETTERS.indexOf(char)) : char
  ).join("")
  const day = twoDigits(decoded, 9)
  if (!isDate(2000 + twoDigits(decoded, 6), MONTH_LETTERS.indexOf(decoded[8]!) + 1, day > 40 ? day - 40 : day)) {
    return false
  }
  let sum = 0
  for (let i = 0; i < 15; i++) {
    const code = n.charCodeAt(i)
    const value = code <= 57 ? code - 48 : code - 65
    sum += i % 2 === 0 ? ODD_VALUES[value]! : value
  }
  return String.fromCharCode(65 + (sum % 26)) === n[15]
}

/**
 * Belgium national number (and BIS number, month plus 20 or 40): date of
 * birth (00 where unknown), serial 001-997, and the check 97 − (first 9
 * digits mod 97), with a 2 before them for those born from 2000.
 */
export const belgianNumberValid = (n: string): boolean => {
  if (!/^\d{11}$/.test(n) || allSame(n)) return false
  const serial = Number(n.slice(6, 9))
  if (serial === 0 || serial > 997) return false
  const rawMonth = twoDigits(n, 2)
  if (rawMonth % 20 > 12 || rawMonth >= 60) return false
  const month = rawMonth % 20
  const day = twoDigits(n, 4)
  if (day > 31) return false
  const base = Number(n.slice(0, 9))
  const check = Number(n.slice(9))
  return [1900, 2000].some((century) =>
    97 - ((century === 2000 ? 2_000_000_000 + base : base) % 97) === check &&
    (month === 0 || day === 0 || isDate(century + twoDigits(n, 0), month, day))
  )
}

/**
 * Sweden personnummer (and samordningsnummer, day plus 60): YYMMDD or
 * YYYYMMDD, a birth number other than 000, and Luhn over the last 10 digits.
 */
export const personnummerValid = (n: string): boolean => {
  if (!/^(?:18|19|20)?\d{10}$/.test(n) || allSame(n)) return false
  const short = n.slice(-10)
  const year = n.length === 12 ? Number(n.slice(0, 4)) : 2000 + twoDigits(short, 0)
  const day = twoDigits(short, 4)
  return isDate(year, twoDigits(short, 2), day > 60 ? day - 60 : day) && short.slice(6, 9) !== "000" &&
    luhnValid(short)
}

const HETU_CONTROL = "0123456789ABCDEFHJKLMNPRSTUVWXY"
const HETU_CENTURY: Readonly<Record<string, number>> = {
  "+": 1800,
  "-": 1900,
  U: 1900,
  V: 1900,
  W: 1900,
  X: 1900,
  Y: 1900,
  A: 2000,
  B: 2000,
  C: 2000,
  D: 2000,
  E: 2000,
  F: 2000
}

/** Finland HETU: DDMMYY, century sign, individual number 002-999, control character of the 9 digits mod 31. */
export const hetuValid = (n: string): boolean => {
  const parts = /^(\d{6})([-+A-FU-Y])(\d{3})([\dA-Y])$/.exec(n)
  if (parts === null) return false
  const [, date, sign, individual, control] = parts as unknown as [string, string, string, string, string]
  return isDate(HETU_CENTURY[sign]! + twoDigits(date, 4), twoDigits(date, 2), twoDigits(date, 0)) &&
    Number(individual) >= 2 && HETU_CONTROL[Number(date + individual) % 31] === control
}

/**
 * Denmark CPR: DDMMYY and 4 digits whose first gives the century. Numbers
 * issued since 2007 need not pass the old mod-11 check, so only the date is
 * checked and the matcher asks for a cue word.
 */
export const cprValid = (n: string): boolean => {
  if (!/^\d{10}$/.test(n) || allSame(n)) return false
  const year = twoDigits(n, 4)
  const seventh = digitAt(n, 6)
  const century = seventh <= 3 ? 1900 : seventh === 4 || seventh === 9 ?
    (year <= 36 ? 2000 : 1900) :
    year <= 57
    ? 2000
    : 1800
  return isDate(century + year, twoDigits(n, 2), twoDigits(n, 0))
}

const PESEL_WEIGHTS = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]
// The month carries the century: +0 for 1900, +20 for 2000, +80 for 1800 (2100 and 2200 not yet issued).
const PESEL_CENTURY: ReadonlyArray<number | undefined> = [1900, 2000, undefined, undefined, 1800]

/** Poland PESEL: YYMMDD (month with the century), serial, check digit of weights 1-3-7-9. */
export const peselValid = (n: string): boolean => {
  if (!/^\d{11}$/.test(n) || allSame(n)) return false
  const month = twoDigits(n, 2)
  const century = PESEL_CENTURY[Math.floor(month / 20)]
  if (century === undefined || !isDate(century + twoDigits(n, 0), month % 20, twoDigits(n, 4))) return false
  let sum = 0
  for (let i = 0; i < 10; i++) sum += digitAt(n, i) * PESEL_WEIGHTS[i]!
  return (10 - (sum % 10)) % 10 === digitAt(n, 10)
}

const cpfDigit = (n: string, length: number): number => {
  let sum = 0
  for (let i = 0; i < length; i++) sum += digitAt(n, i) * (length + 1 - i)
  const rest = sum % 11
  return rest < 2 ? 0 : 11 - rest
}

/** Brazil CPF: 9 digits and two mod-11 check digits; numbers of one repeated digit are not issued. */
export const cpfValid = (n: string): boolean =>
  /^\d{11}$/.test(n) && !allSame(n) && cpfDigit(n, 9) === digitAt(n, 9) && cpfDigit(n, 10) === digitAt(n, 10)

/** India Aadhaar: 12 digits not starting with 0 or 1, Verhoeff check. */
export const aadhaarValid = (n: string): boolean => /^[2-9]\d{11}$/.test(n) && !allSame(n) && verhoeffValid(n)

const CHINA_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
const CHINA_CHECK = "10X98765432"
const CHINA_PROVINCES: ReadonlySet<string> = new Set(
  "11 12 13 14 15 21 22 23 31 32 33 34 35 36 37 41 42 43 44 45 46 50 51 52 53 54 61 62 63 64 65 71 81 82 83".split(" ")
)

/** China resident identity card: province, YYYYMMDD, sequence, ISO 7064 MOD 11-2 check (0-9 or X). */
export const chinaIdValid = (n: string): boolean => {
  if (!/^\d{17}[\dX]$/.test(n) || !CHINA_PROVINCES.has(n.slice(0, 2))) return false
  const year = Number(n.slice(6, 10))
  if (year < 1880 || year > 2099 || !isDate(year, twoDigits(n, 10), twoDigits(n, 12))) return false
  let sum = 0
  for (let i = 0; i < 17; i++) sum += digitAt(n, i) * CHINA_WEIGHTS[i]!
  return CHINA_CHECK[sum % 11] === n[17]
}

/** Canada SIN: 9 digits, Luhn; 0 (fictitious) and 8 (business numbers) are never a person's first digit. */
export const sinValid = (n: string): boolean => /^[1-79]\d{8}$/.test(n) && !allSame(n) && luhnValid(n)

/**
 * Germany Steuer-IdNr: 11 digits, no leading 0; in the first 10 exactly one
 * digit appears twice or three times (never three in a row); ISO 7064 MOD
 * 11,10 check.
 */
export const steuerIdValid = (n: string): boolean => {
  if (!/^[1-9]\d{10}$/.test(n)) return false
  const counts = new Array<number>(10).fill(0)
  for (let i = 0; i < 10; i++) counts[digitAt(n, i)]!++
  const repeated = counts.filter((count) => count > 1)
  if (repeated.length !== 1 || repeated[0]! > 3 || /(\d)\1\1/.test(n.slice(0, 10))) return false
  let product = 10
  for (let i = 0; i < 10; i++) {
    const sum = (digitAt(n, i) + product) % 10
    product = ((sum === 0 ? 10 : sum) * 2) % 11
  }
  return (11 - product) % 10 === digitAt(n, 10)
}

const NINO = /^[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]$/
const NINO_UNALLOCATED: ReadonlySet<string> = new Set(["BG", "GB", "KN", "NK", "NT", "TN", "ZZ"])

/**
 * UK National Insurance number: no checksum, but HMRC's letter rules: no D,
 * F, I, Q, U or V first, nor those and O second, none of the unallocated
 * prefixes (BG, GB, KN, NK, NT, TN, ZZ), suffix A to D.
 */
export const ninoValid = (n: string): boolean =>
  NINO.test(n) && !NINO_UNALLOCATED.has(n.slice(0, 2)) && !allSame(n.slice(2, 8))
