/**
 * Phone numbers in international (`+44 20 7946 0958`, `0044 …`) and national
 * formats (`(415) 555-0132`, `555.123.4567`, `07700 900 123`), with an
 * optional extension. A run of figures counts when its grouping looks like
 * a phone number's; bare runs need a `+`, a trunk `0` or words like "call"
 * nearby, and words like "order" or a currency sign rule a run out, as do
 * dates, times, decimals and single years.
 */
import { rangesOf, saysBefore, type Sensitivity, type TextRange } from "./TextRange.js"

const CANDIDATE =
  /(?<![\w+(./-])(?:\+ ?|00)?(?:\(\d{1,5}\) ?)?\d[\d ().\u00a0-]{4,22}\d(?: ?(?:x|ext\.?|extension|#) ?\d{1,6})?(?![\w:]|-\d|[.,]\d)/gi
const PHONE_CONTEXT =
  /\b(?:phone|tel|telephone|mobile|cell|call|calling|text|texts|fax|whatsapp|sms|messages?|number|contact|reach|dial|ring|answering|desk)\b/i
// Labels written after a number, as signatures do: "082 490 1693-Office".
const PHONE_LABEL_AFTER = /^[\s,-]{0,3}(?:office|fax|mobile|cell|home|work|desk|phone|tel)\b/i
const NOT_PHONE_CONTEXT =
  /(?:\b(?:order|invoice|ref|reference|account|acct|tracking|ticket|case|id|iban|card|ssn|isbn|serial|zip|postcode|po box|box|suite|apt|unit)\b[\s.:#-]*|#\s*|[$€£¥]\s*)$/i

const groupsOf = (raw: string): Array<string> =>
  raw.replace(/\(0\)/g, " ").replace(/[().\u00a0-]/g, " ").trim().split(/ +/)

const looksLikeDateOrTime = (raw: string): boolean =>
  /^\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}(?: \d{1,2})?$/.test(raw) || /^(?:19|20)\d\d[ -](?:19|20)\d\d$/.test(raw)

/** Phone numbers. */
export const phoneNumbers = (text: string, sensitivity: Sensitivity): Array<TextRange> =>
  rangesOf(text, CANDIDATE, (match) => {
    const raw = match[0]
    const end = match.index + raw.length
    const extension = /(?: ?(?:x|ext\.?|extension|#) ?\d{1,6})$/i.exec(raw)
    const main = extension === null ? raw : raw.slice(0, extension.index)
    if (/[()]/.test(main) && !/^(?:\+ ?\d{1,3} ?)?\(\d{1,5}\)/.test(main) && !/\(0\)/.test(main)) return false
    const digits = main.replace(/\D/g, "")
    if (digits.length < 7 || digits.length > 15) return false
    if (looksLikeDateOrTime(main)) return false
    if (saysBefore(text, match.index, NOT_PHONE_CONTEXT, 24)) return false
    const international = /^(?:\+|00)/.test(main)
    const groups = groupsOf(main.replace(/^\+/, ""))
    if (groups.length === 1) {
      if (international) return digits.length >= 8
      const trunk = /^0[1-9]/.test(digits) && digits.length >= 10
      return (digits.length === 10 || digits.length === 11 || trunk) &&
        (trunk || sensitivity === "high" || saysBefore(text, match.index, PHONE_CONTEXT, 40))
    }
    const rest = international ? groups.slice(1) : groups
    if (
      rest.slice(0, -1).some((group, index) =>
        group.length < (international && index === 0 ? 1 : 2) || group.length > 6
      )
    ) {
      return false
    }
    if (rest.at(-1)!.length < 2 || rest.at(-1)!.length > 8) return false
    if (!international && groups[0]!.length > 5) return false
    if (/\.\d{1,2}$/.test(main) && !/\d\.\d+\.\d/.test(main)) return false
    const cued = saysBefore(text, match.index, PHONE_CONTEXT, 40) || PHONE_LABEL_AFTER.test(text.slice(end, end + 12))
    const areaCode = /^\(\d{2,5}\)/.test(main)
    if (sensitivity === "low" && !international && !cued) return /^\(?\d{3}\)?[ .-]\d{3}[ .-]\d{4}$/.test(main)
    return digits.length >= 10 || international || cued || areaCode || sensitivity === "high"
  })
