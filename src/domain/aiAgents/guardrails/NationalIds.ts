/**
 * National identity numbers whose format carries a check (`national-id`):
 * UK NHS and National Insurance numbers, Netherlands BSN, Spain DNI and NIE,
 * France NIR, Italy codice fiscale, Belgium national number, Sweden
 * personnummer, Finland HETU, Denmark CPR, Poland PESEL, Brazil CPF, India
 * Aadhaar, China resident identity card, Canada SIN, Germany Steuer-IdNr.
 *
 * Each written form of a scheme has a strength: how much its shape says
 * alone. A number fires when its scheme's rules hold (`NationalIdChecks`) and
 * either its strength reaches the sensitivity's bar or a cue stands within 60
 * characters before it, as SSNs do: a word of its scheme ("BSN", "PESEL",
 * "national insurance") or one that announces any ("national id number").
 * Every pattern starts only where its first character class starts and
 * repeats a bounded number of times: linear in the text.
 */
import {
  aadhaarValid,
  belgianNumberValid,
  bsnValid,
  chinaIdValid,
  codiceFiscaleValid,
  cpfValid,
  cprValid,
  dniValid,
  hetuValid,
  nhsValid,
  nieValid,
  ninoValid,
  nirValid,
  personnummerValid,
  peselValid,
  sinValid,
  steuerIdValid
} from "./NationalIdChecks.js"
import { rangesOf, saysBefore, type Sensitivity, type TextRange } from "./TextRange.js"

/**
 * 0: never without a cue (no checksum, or a shape that ordinary numbers have);
 * 1: bare digits a checksum alone cannot single out, a cue below `high`;
 * 2: a national written form, or a long checksum with a date, a cue at `low` only;
 * 3: unmistakable (letters and a date and a check), never a cue.
 */
type Strength = 0 | 1 | 2 | 3

const BAR: Record<Sensitivity, Strength> = { low: 3, medium: 2, high: 1 }

/** One way a matched text may be a scheme's number. */
interface Reading {
  readonly valid: (compact: string, raw: string) => boolean
  readonly cue: RegExp
  readonly strength: Strength
}

const CUE = {
  nhs: /\bnhs\b|\bchi (?:number|no)\b|health (?:and|&) care number/i,
  bsn: /\b(?:bsn|burgerservicenummer|sofi-?nummer|citizen service number)\b/i,
  dni: /\b(?:DNI|NIE|NIF)\b|[Dd]ocumento [Nn]acional|[Nn][uú]mero de [Ii]dentidad/,
  nir: /\b(?:nir|insee|s[eé]curit[eé] sociale|s[eé]cu|carte vitale|social security)\b/i,
  codiceFiscale: /codice fiscale|fiscal code|tax code/i,
  belgium:
    /rijksregister|\bnum[eé]ro national|registre national|national (?:register |registry )?number|\b(?:insz|niss|rrn)\b/i,
  sweden: /\b(?:personnummer|personnr|samordningsnummer)\b|personal identity number/i,
  finland: /\b(?:hetu|henkil[oö]tunnus|personbeteckning)\b/i,
  denmark: /\bcpr\b|\bpersonnummer\b/i,
  pesel: /\bpesel\b/i,
  cpf: /\bcpf\b|cadastro de pessoas/i,
  aadhaar: /\b(?:aadhaa?r|uidai)\b|आधार/i,
  china: /身份证|resident identity|identity card/i,
  sin: /\b(?:SIN|NAS)\b|\b[Ss]ocial [Ii]nsurance|\b[Aa]ssurance [Ss]ociale/,
  steuerId: /\b[Ss]teuer-? ?[Ii][Dd]|[Ss]teueridentifikations|[Ii]dentifikationsnummer|\bIdNr\b|\bTIN\b|\b[Tt]ax ID/,
  nino: /national insurance|\bnino\b|\bni (?:number|no)\b/i
}
// Words that announce a national id of any scheme.
const ANY_CUE =
  /\bnational (?:id|identity|identification|insurance|number)|\b(?:identity|id) (?:card|number|no\b)|\bpersonal (?:id|identity|identification)? ?(?:number|code)/i

const reading = (valid: Reading["valid"], cue: RegExp, strength: Strength): Reading => ({
  valid,
  cue,
  strength
})

const START = "(?<![\\w@/+]|\\d[ .,-])"
const END = "(?![\\w@]|[.,/-]?\\d| \\d)"
const pattern = (body: string, flags = "g") => new RegExp(START + body + END, flags)

/** A written form: its pattern and, from the matched text, the readings it may have. */
interface Form {
  readonly pattern: RegExp
  readonly readings: (raw: string) => ReadonlyArray<Reading>
}

const HETU = reading((_, written) => hetuValid(written), CUE.finland, 3)
const SWEDEN_DASHED = reading(personnummerValid, CUE.sweden, 2)
const DENMARK = reading(cprValid, CUE.denmark, 0)
const GROUPED_NINE = [reading(sinValid, CUE.sin, 1), reading(bsnValid, CUE.bsn, 1)]
const GROUPED_TEN = [reading(nhsValid, CUE.nhs, 1)]

// Bare digits, by length (15 is the NIR's form below, which also takes it compact).
const BARE: Readonly<Record<number, ReadonlyArray<Reading>>> = {
  9: [reading(bsnValid, CUE.bsn, 1), reading(sinValid, CUE.sin, 1)],
  10: [reading(nhsValid, CUE.nhs, 1), reading(personnummerValid, CUE.sweden, 1), reading(cprValid, CUE.denmark, 0)],
  11: [
    reading(belgianNumberValid, CUE.belgium, 2),
    reading(steuerIdValid, CUE.steuerId, 1),
    reading(peselValid, CUE.pesel, 1),
    reading(cpfValid, CUE.cpf, 1)
  ],
  12: [reading(personnummerValid, CUE.sweden, 2), reading(aadhaarValid, CUE.aadhaar, 1)],
  18: [reading(chinaIdValid, CUE.china, 3)]
}

const FORMS: ReadonlyArray<Form> = [
  { pattern: pattern("\\d{8,17}[\\dXx]"), readings: (raw) => BARE[raw.length] ?? [] },
  // 046 454 286, 943 476 5919
  {
    pattern: pattern("\\d{3}([ -])\\d{3}\\1\\d{3,4}"),
    readings: (raw) => raw.length === 11 ? GROUPED_NINE : GROUPED_TEN
  },
  // 1112.22.333
  { pattern: pattern("\\d{4}([. ])\\d{2}\\1\\d{3}"), readings: () => [reading(bsnValid, CUE.bsn, 2)] },
  // 131052-308T, 811218-9876, 19811218-9876, 010190-1234
  {
    pattern: pattern("(?:\\d{2})?\\d{6}[-+A-FU-Y]\\d{3}[\\dA-Y]"),
    readings: (raw) => {
      if (raw.length === 13) return raw[8] === "-" && /\d$/.test(raw) ? [reading(personnummerValid, CUE.sweden, 3)] : []
      if (!/^\d{6}[-+]\d{4}$/.test(raw)) return [HETU]
      return raw[6] === "-" ? [HETU, SWEDEN_DASHED, DENMARK] : [HETU, SWEDEN_DASHED]
    }
  },
  // 85.07.30-033.28
  {
    pattern: pattern("\\d{2}\\.\\d{2}\\.\\d{2}-\\d{3}\\.\\d{2}"),
    readings: () => [reading(belgianNumberValid, CUE.belgium, 3)]
  },
  // 123.456.789-09
  { pattern: pattern("\\d{3}\\.\\d{3}\\.\\d{3}-\\d{2}"), readings: () => [reading(cpfValid, CUE.cpf, 3)] },
  // 12 345 678 901
  { pattern: pattern("\\d{2} \\d{3} \\d{3} \\d{3}"), readings: () => [reading(steuerIdValid, CUE.steuerId, 2)] },
  // 2345 6789 0123
  { pattern: pattern("\\d{4}([ -])\\d{4}\\1\\d{4}"), readings: () => [reading(aadhaarValid, CUE.aadhaar, 2)] },
  // 1 85 05 78 006 084 36, 2 90 12 2A 004 012 81, compact
  {
    pattern: pattern("[1278]( ?)\\d{2}\\1\\d{2}\\1(?:\\d{2}|2[AB])\\1\\d{3}\\1\\d{3} ?\\d{2}"),
    readings: (raw) => [reading(nirValid, CUE.nir, raw.includes(" ") ? 3 : 2)]
  },
  // 12345678Z, 12.345.678-Z, 12345678z
  {
    pattern: pattern("(?:\\d{8}|\\d{2}\\.\\d{3}\\.\\d{3})(?:-?[A-Z]| [A-Z]|[a-z])"),
    readings: () => [reading(dniValid, CUE.dni, 2)]
  },
  // X1234567L, X-1234567-L
  { pattern: pattern("[XYZ]-?\\d{7}-?[A-Z]"), readings: () => [reading(nieValid, CUE.dni, 2)] },
  // RSSMRA85T10A562S, in either case
  {
    pattern: pattern("[A-Z]{6}[\\dLMNP-V]{2}[ABCDEHLMPRST][\\dLMNP-V]{2}[A-Z][\\dLMNP-V]{3}[A-Z]", "gi"),
    readings: () => [reading(codiceFiscaleValid, CUE.codiceFiscale, 3)]
  },
  // AB 12 34 56 C, AB123456C; in lower case only with a cue below high
  {
    pattern: pattern("[A-Z]{2} ?\\d{2} ?\\d{2} ?\\d{2} ?[A-D]", "gi"),
    readings: (raw) => [reading(ninoValid, CUE.nino, raw === raw.toUpperCase() ? 2 : 1)]
  }
]

/** National identity numbers (see the module's comment), at the given sensitivity. */
export const nationalIds = (text: string, sensitivity: Sensitivity): Array<TextRange> => {
  if (!/\d/.test(text)) return []
  const bar = BAR[sensitivity]
  const ranges: Array<TextRange> = []
  for (const { pattern, readings } of FORMS) {
    for (
      const range of rangesOf(text, pattern, (match) => {
        const compact = match[0].replace(/[ .+-]/g, "").toUpperCase()
        return readings(match[0]).some((candidate) =>
          candidate.valid(compact, match[0]) &&
          (candidate.strength >= bar || saysBefore(text, match.index, candidate.cue, 60) ||
            saysBefore(text, match.index, ANY_CUE, 60))
        )
      })
    ) ranges.push(range)
  }
  return ranges
}
