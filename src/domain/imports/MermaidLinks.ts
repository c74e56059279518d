/**
 * Mermaid's links, read as Mermaid's own lexer reads them (flow.jison: a
 * `LINK` such as `-->`, `---`, `==>`, `-.->`, `--o`, `<-->`, `~~~`, or a
 * `START_LINK` `--`, `==` or `-.` followed by a label and a closing link), and
 * what they mean in a flow, where a route has a direction and no head style.
 * An arrow-head at both ends (`<-->`, `<-- text -->`, `<==>`, `<-.->`) runs
 * both ways: two routes, one each way. A circle or cross end (`--o`, `--x`,
 * `-.-o`) means nothing to a route, so it is read as a plain arrow in the
 * written direction, and a circle or cross at both ends (`o--o`, `x--x`) as
 * two plain arrows; either way `headNote` says so for the import's report.
 * Ends that do not pair (`<--o`, `o-->`, `<---`) are one plain arrow, left to
 * right, with a note too. An open link (`---`, `===`, `-.-`) runs left to
 * right, as the chart is drawn. `~~~` is layout only and makes no route.
 */

type Head = "arrow" | "circle" | "cross" | "none"

/** A link as it reads in a flow. */
export interface MermaidLink {
  /** Characters of the statement the link took, a `-- text -->` label included. */
  readonly length: number
  /** The link as written, a `-- text -->` label included: `--o`, `<-->`, `<-- yes -->`. */
  readonly arrow: string
  /** The raw text of a `-- text -->` label (a `|label|` after the link is read apart). */
  readonly text: string | undefined
  /** `~~~`: drawn invisible, it makes no route. */
  readonly invisible: boolean
  /** Whether the link also runs from its right side back to its left. */
  readonly twoWay: boolean
  /** What was read other than as drawn, for the report; undefined when nothing was. */
  readonly note: string | undefined
}

/** A link, after the space before it and its id (`e1@-->`, ignored). */
const LINK = /^\s*(?:[\p{L}\p{N}_]+@)?([xo<]?)(?:-{2,}[-xo>]|={2,}[=xo>]|-?\.+-[xo>]?|(~{3,}))/u
const START_LINK = /^\s*(?:[\p{L}\p{N}_]+@)?([xo<]?)(--|==|-\.)(?![-=.>])/u
/** The closing link of a `START_LINK`, by its stroke. */
const END_LINK: Record<string, RegExp> = {
  "--": /[xo<]?-{2,}[-xo>]/,
  "==": /[xo<]?={2,}[=xo>]/,
  "-.": /[xo<]?-?\.+-[xo>]?/
}
/** The closing link right after a quoted label. */
const END_AFTER_QUOTE: Record<string, RegExp> = Object.fromEntries(
  Object.entries(END_LINK).map(([stroke, end]) => [stroke, new RegExp(`^\\s*(?:${end.source})`)])
)

const startHead = (mark: string): Head =>
  mark === "<" ? "arrow" : mark === "o" ? "circle" : mark === "x" ? "cross" : "none"
const endHead = (token: string): Head => {
  const last = token.at(-1)
  return last === ">" ? "arrow" : last === "o" ? "circle" : last === "x" ? "cross" : "none"
}

const named: Record<Head, string> = { arrow: "arrow-head", circle: "circle", cross: "cross", none: "open end" }
const plain = { twoWay: false, note: undefined } as const
const bothWays = { twoWay: true, note: undefined } as const

/** The direction and note of a link with these heads (as Mermaid's `destructLink` pairs them). */
const reading = (start: Head, end: Head): Pick<MermaidLink, "twoWay" | "note"> => {
  const odd = end === "circle" || end === "cross"
  if (start === "none") {
    return odd
      ? { twoWay: false, note: `its ${end} end was read as a plain arrow (a route has no ${end} ends)` }
      : plain
  }
  if (start === end) {
    return odd ? { twoWay: true, note: `its two ${end} ends were read as two plain arrows, one each way` } : bothWays
  }
  return {
    twoWay: false,
    note: `its ends (${named[start]} and ${named[end]}) do not pair up: read as one plain arrow, left to right`
  }
}

/** The link at the start of `text` (spaces before it allowed), or undefined when none starts there. */
export const readLink = (text: string): MermaidLink | undefined => {
  const link = LINK.exec(text)
  if (link !== null) {
    const arrow = link[0].trim()
    return link[2] !== undefined
      ? { length: link[0].length, arrow, text: undefined, invisible: true, twoWay: false, note: undefined }
      : {
        length: link[0].length,
        arrow,
        text: undefined,
        invisible: false,
        ...reading(startHead(link[1]!), endHead(arrow))
      }
  }
  const start = START_LINK.exec(text)
  if (start === null) return undefined
  let at = start[0].length
  while (at < text.length && /\s/.test(text[at]!)) at++
  let label: string
  let end: RegExpExecArray | null
  if (text[at] === "\"") {
    const close = text.indexOf("\"", at + 1)
    if (close < 0) return undefined
    label = text.slice(at, close + 1)
    end = END_AFTER_QUOTE[start[2]!]!.exec(text.slice(close + 1))
    if (end === null) return undefined
    at = close + 1 + end[0].length
  } else {
    end = END_LINK[start[2]!]!.exec(text.slice(at))
    if (end === null || end.index === 0) return undefined
    label = text.slice(at, at + end.index)
    at += end.index + end[0].length
  }
  return {
    length: at,
    arrow: `${start[0].trim()} ${label.trim()} ${end[0].trim()}`.replace(/\s+/g, " "),
    text: label.trim(),
    invisible: false,
    ...reading(startHead(start[1]!), endHead(end[0].trim()))
  }
}
