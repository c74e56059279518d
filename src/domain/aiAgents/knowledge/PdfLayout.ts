/**
 * The text of a PDF from the text runs its pages place (what a PDF reader's
 * text extraction gives: strings with their position and font size), in
 * reading order as the content streams give it. Runs on one baseline make a
 * line (a space where they stand apart); lines make paragraphs, which a
 * larger vertical gap, a change of size or a page break ends; a word split
 * by a hyphen at a line's end is joined. A line set clearly larger than the
 * body text (the size most characters have) is a heading: a Markdown heading
 * whose level follows its size (the largest `#`), so the chunker opens a
 * section there (a paragraph that starts with `#` is escaped, `\#`). Without
 * headings the text is plain.
 */
import type { DocumentText } from "./DocumentText.js"

/** A string a page shows: its baseline's start (`x`, `y` from the bottom), its width and its font size, in points. */
export interface PdfTextRun {
  readonly text: string
  readonly x: number
  readonly y: number
  readonly width: number
  readonly size: number
}

interface Line {
  text: string
  readonly y: number
  size: number
  end: number
}

/** A line at least this much larger than the body text is a heading. */
const HEADING_RATIO = 1.15
/** A heading is short: longer lines are emphasized text, not headings. */
const HEADING_MAX_LENGTH = 160
/** Heading levels in use: the sizes past the third largest share `###`. */
const HEADING_LEVELS = 3

const collapse = (text: string) => text.replace(/\s+/g, " ")

/** The lines of a page: runs on one baseline (within half the font size), joined in the order given. */
const linesOf = (runs: ReadonlyArray<PdfTextRun>): Array<Line> => {
  const lines: Array<Line> = []
  let line: Line | undefined
  for (const run of runs) {
    const text = collapse(run.text)
    if (text.trim() === "") continue
    const size = Math.abs(run.size) || 1
    if (line !== undefined && Math.abs(run.y - line.y) <= Math.max(line.size, size) / 2) {
      const apart = run.x - line.end > size * 0.15
      const spaced = line.text.endsWith(" ") || text.startsWith(" ")
      line.text += (apart && !spaced ? " " : "") + text
      line.size = Math.max(line.size, size)
      line.end = Math.max(line.end, run.x + run.width)
    } else {
      line = { text, y: run.y, size, end: run.x + run.width }
      lines.push(line)
    }
  }
  for (const each of lines) each.text = each.text.trim()
  return lines.filter((each) => each.text !== "")
}

/** The size most characters are set in. */
const bodySize = (pages: ReadonlyArray<ReadonlyArray<Line>>) => {
  const characters = new Map<number, number>()
  for (const line of pages.flat()) {
    const size = Math.round(line.size * 2) / 2
    characters.set(size, (characters.get(size) ?? 0) + line.text.length)
  }
  let best = 0
  let most = -1
  for (const [size, count] of characters) {
    if (count > most || (count === most && size < best)) [best, most] = [size, count]
  }
  return best
}

/** Two lines of one paragraph joined: a word hyphenated at the line's end is rejoined. */
const joinLines = (before: string, after: string) =>
  /\p{L}-$/u.test(before) && /^\p{Ll}/u.test(after) ? before.slice(0, -1) + after : `${before} ${after}`

/** The text of the pages' runs (see the file's comment). */
export const pdfText = (pages: ReadonlyArray<ReadonlyArray<PdfTextRun>>): DocumentText => {
  const pageLines = pages.map(linesOf)
  const body = bodySize(pageLines)
  const isHeading = (line: Line) =>
    body > 0 && line.size >= body * HEADING_RATIO && line.text.length <= HEADING_MAX_LENGTH
  const headingSizes = [...new Set(pageLines.flat().filter(isHeading).map((line) => Math.round(line.size)))]
    .sort((a, b) => b - a)
  const levelOf = (line: Line) => Math.min(HEADING_LEVELS, headingSizes.indexOf(Math.round(line.size)) + 1)
  const blocks: Array<string> = []
  for (const lines of pageLines) {
    let paragraph: { text: string; heading: boolean; last: Line } | undefined
    const close = () => {
      if (paragraph !== undefined) {
        blocks.push(
          paragraph.heading
            ? `${"#".repeat(levelOf(paragraph.last))} ${paragraph.text}`
            : paragraph.text.replace(/^#/, "\\#")
        )
      }
      paragraph = undefined
    }
    for (const line of lines) {
      const heading = isHeading(line)
      if (paragraph !== undefined) {
        const gap = paragraph.last.y - line.y
        const sameSize = Math.abs(paragraph.last.size - line.size) <= Math.max(0.5, body * 0.05)
        const continues = paragraph.heading === heading && sameSize && gap > 0 &&
          gap <= Math.max(paragraph.last.size, line.size) * 1.6
        if (continues) {
          paragraph.text = joinLines(paragraph.text, line.text)
          paragraph.last = line
          continue
        }
        close()
      }
      paragraph = { text: line.text, heading, last: line }
    }
    close()
  }
  return { text: blocks.join("\n\n"), structure: headingSizes.length > 0 ? "markdown" : "plain" }
}
