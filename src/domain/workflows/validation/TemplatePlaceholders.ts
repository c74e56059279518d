/**
 * How a workflow template splits into text and `{{ JSONata }}` placeholders.
 * A placeholder opens at `{{` and closes at the first `}}` that is outside
 * the expression's own string literals ('...', "...", `...`), comments and
 * braces, so `{{ {"total": vars.total} }}` is one placeholder. A `{{` that
 * never closes is an error; a `}}` outside any placeholder is text (printed as
 * written), and is reported as a likely slip. Linear in the template.
 */

/** One placeholder: its expression and where its `{{` stands in the template. */
export interface Placeholder {
  readonly source: string
  readonly at: number
}

/** A template's placeholders, and where its first broken or stray delimiter is, if any. */
export interface TemplateScan {
  readonly placeholders: ReadonlyArray<Placeholder>
  /** The `{{` of a placeholder that is never closed (scanning stops there). */
  readonly unclosedAt: number | undefined
  /** The first `}}` that closes no placeholder. */
  readonly strayCloseAt: number | undefined
}

/** Where the placeholder whose expression starts at `from` ends (the index of its `}}`), or -1. */
const closing = (template: string, from: number): number => {
  let depth = 0
  let index = from
  while (index < template.length) {
    const char = template[index]!
    if (char === "\"" || char === "'" || char === "`") {
      index++
      while (index < template.length && template[index] !== char) {
        index += char !== "`" && template[index] === "\\"
          ? 2
          : 1
      }
      if (index >= template.length) return -1
    } else if (char === "/" && template[index + 1] === "*") {
      const end = template.indexOf("*/", index + 2)
      if (end < 0) return -1
      index = end + 1
    } else if (char === "{") {
      depth++
    } else if (char === "}") {
      if (depth === 0 && template[index + 1] === "}") return index
      if (depth > 0) depth--
    }
    index++
  }
  return -1
}

/** Splits `template` into its placeholders. */
export const scanTemplate = (template: string): TemplateScan => {
  const placeholders: Array<Placeholder> = []
  let strayCloseAt: number | undefined
  let index = 0
  while (index < template.length) {
    const open = template.indexOf("{{", index)
    const close = template.indexOf("}}", index)
    if (close >= 0 && (open < 0 || close < open)) strayCloseAt ??= close
    if (open < 0) break
    const end = closing(template, open + 2)
    if (end < 0) return { placeholders, unclosedAt: open, strayCloseAt }
    placeholders.push({ source: template.slice(open + 2, end), at: open })
    index = end + 2
  }
  return { placeholders, unclosedAt: undefined, strayCloseAt }
}
