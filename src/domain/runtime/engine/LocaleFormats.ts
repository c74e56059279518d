/**
 * How a locale writes numbers and dates, read from the runtime's ICU data
 * once per compiled program: the decimal and grouping separators
 * (`1,234.5` in `en`, `1.234,5` in `de`, `1 234,5` in `fr`) and whether a
 * date with the year last reads month first (`en-US`: 03/05/2024 is March 5)
 * or day first (nearly everyone else: 5 March). Locales that write the year
 * first (`ja`, `sv`, `en-CA`) read a year-last date day first. A tag ICU
 * cannot resolve falls back to `en`'s separators and day-first dates. Note
 * that ICU resolves a bare `en` as `en-US` (month first).
 */

/** The separators and date order of one locale. */
export interface LocaleFormats {
  readonly locale: string
  readonly decimal: string
  readonly group: string
  readonly dateOrder: "dmy" | "mdy"
}

const part = (parts: ReadonlyArray<Intl.NumberFormatPart>, type: Intl.NumberFormatPartTypes, fallback: string) =>
  parts.find((p) => p.type === type)?.value ?? fallback

/** Reads a locale's formats; never throws. */
export const localeFormats = (locale: string): LocaleFormats => {
  try {
    const numberParts = new Intl.NumberFormat(locale).formatToParts(1234567.5)
    const fields = new Intl.DateTimeFormat(locale, { year: "numeric", month: "numeric", day: "numeric" })
      .formatToParts(new Date(Date.UTC(2024, 2, 5)))
      .map((p) => p.type)
      .filter((type) => type === "year" || type === "month" || type === "day")
      .join(",")
    return {
      locale,
      decimal: part(numberParts, "decimal", "."),
      group: part(numberParts, "group", ","),
      dateOrder: fields === "month,day,year" ? "mdy" : "dmy"
    }
  } catch {
    return { locale, decimal: ".", group: ",", dateOrder: "dmy" }
  }
}
