/**
 * The text of a Mermaid label, node or link: bare, in quotes (`"Hello, world
 * (x)"`, where brackets and punctuation are text) or a Markdown string
 * (`"`**bold** text`"`, emphasis dropped since a message is plain text).
 * A quoted or Markdown label may span several lines of the source: its line
 * breaks are kept as newlines (a message shows them; a node's one-line label
 * folds them into spaces), each line without the indentation that lined it up
 * in the source. `<br>` and `<br/>` are line breaks too, other tags are
 * dropped, and Mermaid's `#quot;`/`#35;` entities are decoded.
 */
import { decodeEntities } from "./ImportText.js"

/** `**bold**`, `__bold__`, `*italic*` and `_italic_` as their text; a lone `*` or a snake_case name stays. */
const markdownText = (text: string): string =>
  text
    .replace(/\*\*(?=\S)([^\n]*?\S)\*\*/g, "$1")
    .replace(/(^|[^\p{L}\p{N}_])__(?=\S)([^\n]*?\S)__(?![\p{L}\p{N}_])/gu, "$1$2")
    .replace(/\*(?=[^\s*])([^*\n]*?[^\s*])\*/g, "$1")
    .replace(/(^|[^\p{L}\p{N}_])_(?=[^\s_])([^_\n]*?[^\s_])_(?![\p{L}\p{N}_])/gu, "$1$2")

/** Lines trimmed of their source indentation, blank lines at either end dropped. */
const dedent = (text: string): string => {
  const lines = text.split("\n").map((line) => line.trim())
  while (lines.length > 0 && lines[0] === "") lines.shift()
  while (lines.length > 0 && lines.at(-1) === "") lines.pop()
  return lines.join("\n")
}

/** Label text: quoted, Markdown or bare; line breaks kept as `\n`. */
export const labelText = (raw: string): string => {
  let text = raw.trim()
  if (text.startsWith("\"") && text.endsWith("\"") && text.length >= 2) text = text.slice(1, -1)
  if (text.startsWith("`") && text.endsWith("`") && text.length >= 2) text = markdownText(text.slice(1, -1))
  return dedent(
    decodeEntities(text.replace(/#(\w+);/g, (_, name: string) => /^\d+$/.test(name) ? `&#${name};` : `&${name};`))
      .replace(/<br\s*\/?>/gi, "\n")
      .replace(/<[^>]+>/g, "")
  )
}
