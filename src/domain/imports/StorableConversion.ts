/**
 * An import's text comes from inside the files it reads (a zip's entries, YAML
 * and JSON escapes such as `\0` or `"\ud800"`, XML character references), past
 * the request checks. Rather than refuse a whole project for one stray
 * character, a conversion's strings are made storable: each NUL character and
 * lone surrogate is replaced by U+FFFD (so every length rule still holds), and
 * the report says how many texts were changed.
 */
import { flawOf, storable } from "../StorableText.js"
import type { ImportReport, ImportWarning } from "./Import.js"
import type { Conversion } from "./ImportDraft.js"
import { MAX_WARNINGS } from "./ImportReportBuilder.js"

const isPlainObject = (value: object): value is Record<string, unknown> => {
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

/** `value` with its strings and keys made storable, rebuilt only where something changed. */
const replaced = (value: unknown, changes: { count: number }): unknown => {
  if (typeof value === "string") {
    if (flawOf(value) === undefined) return value
    changes.count++
    return storable(value)
  }
  if (Array.isArray(value)) {
    let changed = false
    const items = value.map((item) => {
      const next = replaced(item, changes)
      if (next !== item) changed = true
      return next
    })
    return changed ? items : value
  }
  if (value === null || typeof value !== "object" || !isPlainObject(value)) return value
  let changed = false
  const entries = Object.entries(value).map(([key, item]): [string, unknown] => {
    const nextKey = replaced(key, changes) as string
    const next = replaced(item, changes)
    if (nextKey !== key || next !== item) changed = true
    return [nextKey, next]
  })
  return changed ? Object.fromEntries(entries) : value
}

const withWarning = (report: ImportReport, warning: ImportWarning): ImportReport =>
  report.warnings.length >= MAX_WARNINGS
    ? { ...report, truncated: true }
    : { ...report, warnings: [...report.warnings, warning] }

/** The conversion with every string storable, and a warning when any was not. */
export const storableConversion = (conversion: Conversion): Conversion => {
  const changes = { count: 0 }
  const clean = replaced(conversion, changes) as Conversion
  if (changes.count === 0) return conversion
  const warning: ImportWarning = {
    code: "unstorable-text",
    message: `${changes.count} ${
      changes.count === 1 ? "text holds" : "texts hold"
    } characters Parley cannot store (NUL, lone surrogates): each was replaced by U+FFFD`
  }
  return clean._tag === "Unreadable"
    ? { ...clean, problems: [...clean.problems, warning] }
    : { ...clean, report: withWarning(clean.report, warning) }
}
