/**
 * Postal addresses by pattern: a house number and capitalised words ending
 * in a street word ("12 Timms Drive"), a street word first ("Rue de Virton
 * 38", "ul. Grochowa 80"), a street name with its street word built in and
 * a number ("Friedhofstrasse 33", "Koskikatu 25"), apartments and suites,
 * PO boxes and military addresses. After each street, the unit and the
 * postcode of the lines that follow count too (the city and the country do
 * not: they are places, not addresses). Every repetition is bounded.
 */
import { rangesOf, type TextRange } from "./TextRange.js"

const NAME = "[\\p{Lu}\\d][\\p{L}\\p{M}'’.-]{0,40}"
const SUFFIX =
  "(?:Street|St|Str|Avenue|Ave|Av|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Place|Pl|Way|Terrace|Circle|Cir|Highway|Hwy|Parkway|Pkwy|Square|Sq|Trail|Crescent|Close|Grove|Gardens|Mews|Row|Walk|Plaza|Loop|Alley|Heights|Hill|Park|Ridge|View|Green)"
const PREFIX =
  "(?:[Rr]ue|[Aa]venue|Av\\.?|Avda\\.?|[Aa]venida|Via|Viale|Piazza|Corso|[Cc]alle|C\\/|Carrer|Paseo|Plaza|Camino|[Rr]ua|[Rr]úa|Praça|Travessa|Estrada|Rodovia|ul\\.|ulica|Chemin|Boulevard|Bd|Allée|Quai|Impasse|Route|Strada|Odos|Leoforos)"
const BUILT_IN =
  "(?:strasse|straße|str\\.|gasse|weg|allee|platz|damm|gade|vej|vägen|gatan|gata|veien|vei|vegur|tie|katu|kuja|polku|tori|straat|laan|plein|gracht|kade|singel|dreef|utca|ulice|cesta|ulica|iela|gatve|stræti|straeti|stræde|hove|bakke|veg|väg|gränd|torget)"
const NUMBER = "\\d{1,5}[A-Za-z]?(?:[-/]\\d{1,4})?"
const SPACE = "[ \\t]{1,3}"
const LEAD = `(?:\\d{1,6}${SPACE}){0,2}`
// Street words written after the name, in languages other than English: "Király u. 15.", "Erzsébet tér 19.".
const AFTER =
  "(?:u\\.|utca|út|útja|tér|körút|str\\.?|trg|ulica|ul\\.|náměstí|nám\\.|Strasse|Straße|Gasse|Weg|Platz|Allee|Ring|Gade|Vej)"
const WORD = "[\\p{L}][\\p{L}\\p{M}'’-]{0,30}"
// Where a "number, name, number" street ends: the end of a line or the text, a comma, or a unit.
const LINE_END = "(?=[ \\t]{0,3}(?:$|[\\n,;]|\\.(?:\\s|$)|(?:Apt|Suite|Unit)\\b))"
const PARTICLE = "(?:de|del|da|do|dos|das|di|dei|della|delle|des|du|la|le|von|van|der|den|al|el)"

const STREETS = new RegExp(
  "(?<![\\p{L}\\p{N}])(?:" + [
    `${LEAD}\\d{1,6}[A-Za-z]?${SPACE}(?:${NAME}${SPACE}){0,3}${SUFFIX}\\.?(?![\\p{L}])`,
    `\\d{1,6}${SPACE}(?:\\d{1,6}${SPACE})?${PREFIX}${SPACE}(?:${PARTICLE}${SPACE}|${NAME}${SPACE}){0,4}(?:${NUMBER}|${NAME})`,
    `${LEAD}${PREFIX}${SPACE}(?:${PARTICLE}${SPACE}|${NAME}${SPACE}){0,3}${NUMBER}(?![\\p{L}\\p{N}])`,
    `${LEAD}${PREFIX}${SPACE}(?:${WORD}${SPACE}){1,2}${NUMBER}(?![\\p{L}\\p{N}])`,
    `${LEAD}(?:[\\p{L}][\\p{L}\\p{M}-]{0,30}${SPACE})?[\\p{L}][\\p{L}\\p{M}-]{1,30}${BUILT_IN}\\.?${SPACE}${NUMBER}`,
    `${LEAD}(?:${WORD}${SPACE}){1,2}${AFTER}${SPACE}${NUMBER}\\.?`,
    `(?<!\\p{Lu}\\p{Ll}{0,20}[ \\t])\\d{1,6}${SPACE}[\\p{Lu}][\\p{L}\\p{M}'’-]{1,30}(?:${SPACE}(?:${NAME}|${PARTICLE}|${AFTER})){0,2}${SPACE}\\d{1,5}${LINE_END}`,
    `(?:${NAME}${SPACE}){1,2}(?:Street|Road|Avenue|Boulevard|Lane|Drive)(?![\\p{L}])`
  ].join("|") + ")",
  "gmu"
)

const UNIT =
  /(?<![\p{L}\p{N}])(?:[Aa]pt|[Aa]partment|[Ss]uite|Ste|Unit|Flat)\.?[ \t]{0,2}#?[ \t]{0,2}\d{1,5}[A-Za-z]?(?![\p{L}\p{N}])/gu
const BOXES = new RegExp(
  "(?<![\\p{L}\\p{N}])(?:\\d{1,6}[ \\t]{1,3})?(?:" + [
    "P\\.?[ ]?O\\.?[ ]?Box[ \\t]{1,3}\\d{1,6}",
    "(?:PSC|Unit|CMR)[ ]\\d{3,5},?[ ]Box[ ]\\d{3,5}(?:\\s{1,3}(?:APO|FPO|DPO)[ ](?:AA|AE|AP)[ ]\\d{5})?",
    "(?:USNS|USNV|USS|USCGC)[ ][\\p{Lu}][\\p{L}\\p{M}'-]{0,30}(?:\\s{1,3}(?:APO|FPO|DPO)[ ](?:AA|AE|AP)[ ]\\d{5})?",
    "(?:APO|FPO|DPO)[ ](?:AA|AE|AP)[ ]\\d{5}"
  ].join("|") + ")",
  "giu"
)
// A postcode on one of the lines after a street: US ZIP (+4), a state and ZIP, a UK postcode, or 4 to 6 figures.
const POSTCODE =
  /(?<![\p{L}\p{N}-])(?:[A-Z]{2}[ ]\d{5}(?:-\d{4})?|\d{5}-\d{4}|[A-Z]{1,2}\d[A-Z\d]?[ ]\d[A-Z]{2}|\d{4,6})(?![\p{L}\p{N}-])/gu
const FOLLOWING = 100

// Words that announce an address: after them, a name and a number ("lives on Pod Floriánem 1677") is one.
const CUE =
  /(?:\blives? (?:on|at|in)|\b(?:is|are) (?:on|at)|\blocated (?:on|at)|\bstop at|\bsen[dt] (?:it |this )?to|\breturn (?:it )?to|\baddress(?: is)?:?|\boff at|\barrived at|\bmeet (?:me |you )?at|\bmoved to|\bdeliver(?:ed)? to|\bside of)[ \t]{1,3}$/i
const NAME_AND_NUMBER = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${WORD}${SPACE}){1,3}${NUMBER}(?![\\p{L}\\p{N}]|[.,]\\d)`,
  "gu"
)
// "the corner of A and B": the whole phrase, to the end of its sentence or line.
const CORNER = /(?<![\p{L}])(?:the )?corner of [^\n!?]{3,100}/giu

const cornerRanges = (text: string): Array<TextRange> =>
  rangesOf(text, CORNER, (match) => {
    const cut = match[0].search(/\.[ \t]|\.$|,| in |[ \t]+(?:after|last|before|in case)\b/)
    const value = cut < 0 ? match[0] : match[0].slice(0, cut)
    return / and | & /.test(value) && !value.includes("{")
      ? { start: match.index, end: match.index + value.length }
      : false
  })

/** Postal addresses: streets, units, boxes, and the postcodes that follow them. */
export const postalAddresses = (text: string): Array<TextRange> => {
  const anchors = [
    ...rangesOf(text, STREETS),
    ...rangesOf(text, BOXES),
    ...rangesOf(text, NAME_AND_NUMBER, (match) => CUE.test(text.slice(Math.max(0, match.index - 24), match.index))),
    ...cornerRanges(text)
  ]
  const units = rangesOf(text, UNIT)
  const postcodes: Array<TextRange> = []
  for (const anchor of [...anchors, ...units]) {
    const tail = text.slice(anchor.end, anchor.end + FOLLOWING)
    const stop = tail.search(/[.,;:!?][ \t]+\p{Ll}|[!?][ \t]+I\b|[.!?]$|\n\s*\p{L}+:/u)
    const block = stop < 0 ? tail : tail.slice(0, stop)
    for (const code of rangesOf(block, POSTCODE)) {
      postcodes.push({ start: anchor.end + code.start, end: anchor.end + code.end })
    }
  }
  return [...anchors, ...units, ...postcodes]
}
