/**
 * An HTML page as the text a knowledge document indexes: headings become
 * Markdown headings (`## Refunds`), so the chunker follows them; blocks
 * (paragraphs, list items, table rows, line breaks) become lines; `script`,
 * `style`, `template`, `noscript`, `svg`, `iframe` and `head` (apart from
 * its `title`, which is returned apart) are dropped, entities decoded, runs
 * of blanks folded. Parsed with htmlparser2 (forgiving, streaming).
 */
import { Parser } from "htmlparser2"

/** The page's text and its `<title>`, if any. */
export interface HtmlText {
  readonly text: string
  readonly title: string | null
}

const dropped = new Set(["script", "style", "template", "noscript", "svg", "iframe", "object", "head", "select"])
const blocks = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "dd",
  "details",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "header",
  "hr",
  "li",
  "main",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "summary",
  "table",
  "tr",
  "ul"
])
const headingLevel = (name: string) => /^h[1-6]$/.test(name) ? Number(name[1]) : 0

/** The text of `html` (see the file's comment). */
export const htmlToText = (html: string): HtmlText => {
  const lines: Array<string> = []
  let line = ""
  let skipping = 0
  let inTitle = false
  let title = ""
  let heading = 0
  let pre = 0
  const endLine = (blank: boolean) => {
    const text = pre > 0 ? line.replace(/\s+$/, "") : line.replace(/\s+/g, " ").trim()
    if (text !== "") lines.push(heading > 0 ? `${"#".repeat(heading)} ${text.replace(/\n+/g, " ")}` : text)
    if (blank && lines.length > 0 && lines[lines.length - 1] !== "") lines.push("")
    line = ""
  }
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === "title") inTitle = true
        if (dropped.has(name)) skipping++
        if (skipping > 0) return
        const level = headingLevel(name)
        if (level > 0) {
          endLine(true)
          heading = level
        } else if (name === "br") {
          if (pre > 0) line += "\n"
          else endLine(false)
        } else if (blocks.has(name)) {
          endLine(name === "p" || name === "table" || name === "ul" || name === "ol" || name === "pre")
          if (name === "li") line = "- "
          if (name === "pre") pre++
        } else if (name === "td" || name === "th") {
          line += " "
        }
      },
      ontext(text) {
        if (inTitle) title += text
        if (skipping > 0) return
        line += text
      },
      onclosetag(name) {
        if (name === "title") inTitle = false
        if (dropped.has(name)) {
          skipping = Math.max(0, skipping - 1)
          return
        }
        if (skipping > 0) return
        if (headingLevel(name) > 0) {
          endLine(true)
          heading = 0
        } else if (blocks.has(name)) {
          if (name === "pre") pre = Math.max(0, pre - 1)
          endLine(name === "p" || name === "table" || name === "ul" || name === "ol" || name === "pre")
        }
      }
    },
    { decodeEntities: true, lowerCaseTags: true }
  )
  parser.write(html)
  parser.end()
  endLine(false)
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop()
  const cleanTitle = title.replace(/\s+/g, " ").trim()
  return { text: lines.join("\n"), title: cleanTitle === "" ? null : cleanTitle }
}
