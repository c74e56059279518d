/**
 * A Mermaid flowchart's statements, in source order, each with the line it
 * starts on. A quoted or Markdown label (`A["two
 * lines"]`, `-- "a
 * label" -->`) may run over several lines, so such lines are read as one: a
 * quote opened where a label starts (after `[`, `(`, `{`, `|`, `>`, `/`, `\`,
 * `:`, a link's `--`, `==` or `-.`, or `subgraph`) and closed within the next
 * `MAX_LABEL_LINES` lines joins them, line breaks kept. A quote that never
 * closes joins nothing, so one stray `"` cannot swallow the rest of a chart.
 * `%%` starts a comment outside quotes only; a whole-line comment stays a line
 * of its own (a Parley export's `%% parley:` metadata is read from those), and
 * `;` outside quotes and `#name;` entities separates statements.
 */

/** The most source lines one quoted label spans. */
export const MAX_LABEL_LINES = 50

/** One logical line: its text (a comment removed unless the whole line is one) and the line it starts on. */
export interface MermaidLine {
  readonly line: number
  readonly text: string
}

const LABEL_START = /(?:[[({|>/\\:]|--|==|-\.|\bsubgraph)\s*$/

interface Scan {
  /** Whether a quote is still open at the end of the text scanned. */
  readonly open: boolean
  /** Whether the open quote starts where a label may (see `LABEL_START`). */
  readonly label: boolean
  /** Where a `%%` comment starts outside quotes, if it does. */
  readonly comment: number | undefined
}

/** Scan `text` for quotes and a trailing comment, starting inside a label's quote when `open`. */
const scan = (text: string, open: boolean): Scan => {
  let quoted = open
  let label = open
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (ch === "\"") {
      if (!quoted) label = LABEL_START.test(text.slice(Math.max(0, i - 12), i))
      quoted = !quoted
    } else if (!quoted && ch === "%" && text[i + 1] === "%") {
      return { open: false, label: false, comment: i }
    }
  }
  return { open: quoted, label, comment: undefined }
}

/** The logical lines of `lines`, whose first is line `offset + 1` of the source. */
export const mermaidLines = (lines: ReadonlyArray<string>, offset: number): Array<MermaidLine> => {
  const out: Array<MermaidLine> = []
  for (let index = 0; index < lines.length; index++) {
    const first = lines[index]!.trim()
    const line = index + 1 + offset
    if (first.startsWith("%%")) {
      out.push({ line, text: first })
      continue
    }
    const firstScan = scan(first, false)
    let text = first
    let comment = firstScan.comment
    let state = firstScan
    let end = index
    while (state.open && state.label && end + 1 < lines.length && end - index < MAX_LABEL_LINES) {
      end++
      const next = lines[end]!
      state = scan(next, true)
      if (state.comment !== undefined) comment = text.length + 1 + state.comment
      text = `${text}\n${next}`
    }
    if (state.open) {
      // Never closed: the line stands alone, as Mermaid would not read it either.
      text = first
      comment = firstScan.comment
      end = index
    }
    out.push({ line, text: (comment === undefined ? text : text.slice(0, comment)).trim() })
    index = end
  }
  return out
}

/** Whether the text before `end` ends in a `#name` entity (its `;` is not a statement's end). */
const endsInEntity = (line: string, start: number, end: number): boolean => {
  let i = end - 1
  while (i >= start && /\w/.test(line[i]!)) i--
  return i < end - 1 && i >= start && line[i] === "#"
}

/** Statements of a line: split at `;` outside quotes and outside `#name;` entities (in linear time). */
export const splitStatements = (line: string): Array<string> => {
  const out: Array<string> = []
  let start = 0
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!
    if (ch === "\"") quoted = !quoted
    if (ch === ";" && !quoted && !endsInEntity(line, start, i)) {
      out.push(line.slice(start, i))
      start = i + 1
    }
  }
  out.push(line.slice(start))
  return out.map((s) => s.trim()).filter((s) => s.length > 0)
}
