/**
 * Collects what an import could not map as it stood, and counts what it
 * skipped, while a converter walks its source. The report keeps at most
 * 1,000 warnings and says when more were dropped.
 */
import type { ImportReport, ImportWarning } from "./Import.js"

/** The most warnings one report holds. */
export const MAX_WARNINGS = 1000

type Code = ImportWarning["code"]
type Location = NonNullable<ImportWarning["location"]>

export interface ReportBuilder {
  /** Note one thing that was not mapped as it stood. */
  readonly warn: (code: Code, message: string, location?: Location) => void
  /** Count source elements that were left out entirely. */
  readonly skip: (count?: number) => void
  readonly warnings: () => ReadonlyArray<ImportWarning>
  readonly skipped: () => number
  readonly truncated: () => boolean
}

/** Drop undefined fields of a location, so the report never carries `undefined`. */
const cleanLocation = (location: Location): Location =>
  Object.fromEntries(Object.entries(location).filter(([, value]) => value !== undefined)) as Location

export const makeReportBuilder = (): ReportBuilder => {
  const warnings: Array<ImportWarning> = []
  let dropped = 0
  let skipped = 0
  return {
    warn: (code, message, location) => {
      if (warnings.length >= MAX_WARNINGS) {
        dropped++
        return
      }
      const clean = location === undefined ? undefined : cleanLocation(location)
      warnings.push(
        clean === undefined || Object.keys(clean).length === 0 ? { code, message } : { code, message, location: clean }
      )
    },
    skip: (count = 1) => {
      skipped += count
    },
    warnings: () => warnings,
    skipped: () => skipped,
    truncated: () => dropped > 0
  }
}

/** The counts of a finished import. */
export interface MappedCounts {
  readonly nodes: number
  readonly edges: number
  readonly subflows: number
  readonly intents: number
  readonly utterances: number
}

/** The report of a finished import. */
export const reportOf = (builder: ReportBuilder, mapped: MappedCounts): ImportReport => ({
  mapped,
  skipped: { elements: builder.skipped() },
  warnings: builder.warnings(),
  truncated: builder.truncated()
})
