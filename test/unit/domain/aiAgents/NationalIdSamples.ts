/**
 * National identity numbers made up for the tests: each completes a body of
 * our choosing with its scheme's check, computed here from the published
 * rules independently of the detector (Aadhaar's Verhoeff digit excepted: it
 * is searched with the detector's `verhoeffValid`, itself tested on the
 * published vectors). None is a real person's number except by chance.
 */
import { verhoeffValid } from "../../../../src/domain/aiAgents/guardrails/Verhoeff.js"

const digits = (text: string): Array<number> => [...text].map(Number)

const luhnDigit = (body: string): number => {
  const sum = digits(body).reverse().reduce((total, digit, index) => {
    const doubled = index % 2 === 0 ? digit * 2 : digit
    return total + (doubled > 9 ? doubled - 9 : doubled)
  }, 0)
  return (10 - (sum % 10)) % 10
}

/** UK NHS number from 9 digits, or undefined when the check would be 10 (never issued). */
export const nhs = (body: string): string | undefined => {
  const sum = digits(body).reduce((total, digit, index) => total + digit * (10 - index), 0)
  const check = (11 - (sum % 11)) % 11
  return check === 10 ? undefined : body + check
}

/** Netherlands BSN from 8 digits, or undefined when no last digit passes the 11-proof. */
export const bsn = (body: string): string | undefined => {
  const last = digits(body).reduce((total, digit, index) => total + digit * (9 - index), 0) % 11
  return last === 10 ? undefined : body + last
}

/** Spain DNI from 8 digits. */
export const dni = (body: string): string => body + "TRWAGMYFPDXBNJZSQVHLCKE"[Number(body) % 23]

/** Spain NIE from X, Y or Z and 7 digits. */
export const nie = (letter: "X" | "Y" | "Z", body: string): string =>
  letter + dni("XYZ".indexOf(letter) + body).slice(1)

/** France NIR from its 13 first characters (2A and 2B allowed), with the key. */
export const nir = (body: string): string => {
  const numeric = body.slice(0, 5) + body.slice(5, 7).replace("2A", "19").replace("2B", "18") + body.slice(7)
  return body + String(97 - Number(BigInt(numeric) % 97n)).padStart(2, "0")
}

const ODD = "BAKPLCQDREVOSFTGUHMINJWZYX"

/** Italy codice fiscale from its 15 first characters, with the check letter. */
export const codiceFiscale = (body: string): string => {
  const sum = [...body].reduce((total, char, index) => {
    const value = /\d/.test(char) ? Number(char) : char.charCodeAt(0) - 65
    return total + (index % 2 === 0 ? ODD.indexOf(String.fromCharCode(65 + value)) : value)
  }, 0)
  return body + String.fromCharCode(65 + (sum % 26))
}

/** Belgium national number from YYMMDD and a serial, for one born in the 1900s or from 2000. */
export const belgian = (date: string, serial: string, bornFrom2000: boolean): string => {
  const base = BigInt((bornFrom2000 ? "2" : "") + date + serial)
  return date + serial + String(97n - (base % 97n)).padStart(2, "0")
}

/** Sweden personnummer's last digit (Luhn over YYMMDDNNN). */
export const personnummer = (body: string): string => body + luhnDigit(body)

/** Finland HETU from DDMMYY, the century sign and the individual number. */
export const hetu = (date: string, sign: string, individual: string): string =>
  date + sign + individual + "0123456789ABCDEFHJKLMNPRSTUVWXY"[Number(date + individual) % 31]

/** Poland PESEL from 10 digits. */
export const pesel = (body: string): string => {
  const sum = digits(body).reduce((total, digit, index) => total + digit * [1, 3, 7, 9][index % 4]!, 0)
  return body + ((10 - (sum % 10)) % 10)
}

const cpfDigit = (body: string): number => {
  const rest = digits(body).reduce((total, digit, index) => total + digit * (body.length + 1 - index), 0) % 11
  return rest < 2 ? 0 : 11 - rest
}

/** Brazil CPF from 9 digits. */
export const cpf = (body: string): string => {
  const first = body + cpfDigit(body)
  return first + cpfDigit(first)
}

/** India Aadhaar from 11 digits. */
export const aadhaar = (body: string): string => {
  for (let digit = 0; digit <= 9; digit++) if (verhoeffValid(body + digit)) return body + digit
  throw new Error(`no Verhoeff digit for ${body}`)
}

/** China resident identity card from 17 digits. */
export const chinaId = (body: string): string => {
  const sum = digits(body).reduce((total, digit, index) => total + digit * (2 ** (17 - index) % 11), 0)
  return body + "10X98765432"[sum % 11]
}

/** Canada SIN from 8 digits. */
export const sin = (body: string): string => body + luhnDigit(body)

/** Germany Steuer-IdNr from 10 digits (ISO 7064 MOD 11,10). */
export const steuerId = (body: string): string => {
  let product = 10
  for (const digit of digits(body)) {
    const sum = (digit + product) % 10 || 10
    product = (sum * 2) % 11
  }
  return body + ((11 - product) % 10)
}
