/** A stretch of a text in UTF-16 offsets, `end` exclusive: what each personal-data matcher returns. */
export interface TextRange {
  readonly start: number
  readonly end: number
}

/** Whether `pattern` (no `g` flag) matches within `window` characters before `start`. */
export const saysBefore = (text: string, start: number, pattern: RegExp, window = 40): boolean =>
  pattern.test(text.slice(Math.max(0, start - window), start))

/** Every match of a global `pattern`, as ranges; `accept` may veto or trim a match. */
export const rangesOf = (
  text: string,
  pattern: RegExp,
  accept: (match: RegExpExecArray) => TextRange | undefined | boolean = () => true
): Array<TextRange> => {
  const ranges: Array<TextRange> = []
  pattern.lastIndex = 0
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (match[0].length === 0) pattern.lastIndex++
    const verdict = accept(match)
    if (verdict === true) ranges.push({ start: match.index, end: match.index + match[0].length })
    else if (verdict !== false && verdict !== undefined) ranges.push(verdict)
  }
  return ranges
}

/** How eagerly a matcher fires (`DetectorSensitivity`): `high` catches more and errs towards false alarms. */
export type Sensitivity = "low" | "medium" | "high"
