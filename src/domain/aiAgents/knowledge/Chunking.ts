/**
 * A document's text cut into chunks for retrieval, following its structure:
 * Markdown headings (ATX `#`, outside fenced code) open sections, and no chunk
 * spans two sections; within a section, a chunk ends at the best break before
 * the target size (a paragraph, else a sentence or line end, else a space,
 * else a hard cut that never falls inside a surrogate pair). Consecutive
 * chunks of a section overlap by about `overlap` characters, from a word's
 * start. Each chunk keeps its heading path ("Refunds › Card payments"), its
 * offsets into the text (`text.slice(start, end)` is its text) and its
 * ordinal: its neighbours are the ordinals either side, so a hit can be
 * widened to its context.
 */

/** One chunk of a document. */
export interface Chunk {
  /** Its place in the document, from 0; neighbours are `ordinal - 1` and `ordinal + 1`. */
  readonly ordinal: number
  /** The headings it sits under, outermost first, joined by " › "; "" before any heading. */
  readonly heading: string
  /** Offsets into the text: the chunk is `text.slice(start, end)`. */
  readonly start: number
  readonly end: number
  readonly text: string
}

/** How to cut: `markdown` reads `#` headings, `plain` has none. Sizes are in UTF-16 code units. */
export interface ChunkOptions {
  readonly structure: "markdown" | "plain"
  /** The size aimed at (800 unless told). */
  readonly target?: number
  /** How much consecutive chunks of one section share (about 15% of the target unless told). */
  readonly overlap?: number
}

/** The heading separator of a chunk's heading path. */
export const HEADING_SEPARATOR = " › "

const heading = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/
const fence = /^ {0,3}(```|~~~)/

const isSpace = (code: number) => code === 32 || code === 9 || code === 10 || code === 13 || code === 12 || code === 160
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff

interface Section {
  readonly heading: string
  readonly start: number
  readonly end: number
}

/** The text's sections: the spans between headings, each with its heading path. */
const sectionsOf = (text: string, structure: ChunkOptions["structure"]): Array<Section> => {
  if (structure === "plain") return [{ heading: "", start: 0, end: text.length }]
  const sections: Array<Section> = []
  const path: Array<{ level: number; title: string }> = []
  let sectionStart = 0
  let inFence = false
  let lineStart = 0
  const close = (end: number) => {
    if (end > sectionStart) {
      sections.push({ heading: path.map((entry) => entry.title).join(HEADING_SEPARATOR), start: sectionStart, end })
    }
  }
  while (lineStart <= text.length) {
    const newline = text.indexOf("\n", lineStart)
    const lineEnd = newline === -1 ? text.length : newline
    const line = text.slice(lineStart, lineEnd)
    if (fence.test(line)) inFence = !inFence
    const match = inFence ? null : heading.exec(line)
    if (match !== null && match[2]!.trim() !== "") {
      close(lineStart)
      const level = match[1]!.length
      while (path.length > 0 && path[path.length - 1]!.level >= level) path.pop()
      path.push({ level, title: match[2]!.trim() })
      sectionStart = newline === -1 ? text.length : newline + 1
    }
    if (newline === -1) break
    lineStart = newline + 1
  }
  close(text.length)
  return sections
}

/** The best place to end a chunk in `[from, to]`: a blank line, a sentence or line end, a space; or -1. */
const breakIn = (text: string, from: number, to: number): number => {
  const paragraph = text.lastIndexOf("\n\n", to - 1)
  if (paragraph >= from) return paragraph
  for (let at = to; at > from; at--) {
    const code = text.charCodeAt(at)
    const before = text.charCodeAt(at - 1)
    if (code === 10) return at
    if (isSpace(code) && (before === 46 || before === 63 || before === 33 || before === 59)) return at
  }
  for (let at = to; at > from; at--) if (isSpace(text.charCodeAt(at))) return at
  return -1
}

/** The text's chunks, in order (see the file's comment). */
export const chunkText = (text: string, options: ChunkOptions): Array<Chunk> => {
  const target = Math.max(16, options.target ?? 800)
  const overlap = Math.min(Math.floor(target / 2), Math.max(0, options.overlap ?? Math.round(target * 0.15)))
  const chunks: Array<Chunk> = []
  const push = (section: Section, start: number, end: number) => {
    while (start < end && isSpace(text.charCodeAt(start))) start++
    while (end > start && isSpace(text.charCodeAt(end - 1))) end--
    if (end > start) {
      chunks.push({ ordinal: chunks.length, heading: section.heading, start, end, text: text.slice(start, end) })
    }
  }
  for (const section of sectionsOf(text, options.structure)) {
    let start = section.start
    while (start < section.end && isSpace(text.charCodeAt(start))) start++
    while (start < section.end) {
      if (section.end - start <= target) {
        push(section, start, section.end)
        break
      }
      const limit = start + target
      let cut = breakIn(text, start + Math.floor(target / 2), limit)
      if (cut === -1) cut = isLowSurrogate(text.charCodeAt(limit)) ? limit - 1 : limit
      push(section, start, cut)
      // The next chunk starts `overlap` before the cut, at a word's start (never inside a pair).
      let next = cut - overlap
      while (next < cut && !(isSpace(text.charCodeAt(next - 1)) && !isSpace(text.charCodeAt(next)))) next++
      if (next <= start || next >= cut) next = cut
      while (next < section.end && isSpace(text.charCodeAt(next))) next++
      if (isLowSurrogate(text.charCodeAt(next))) next++
      start = next
    }
  }
  return chunks
}
