/**
 * Text PostgreSQL can store. It refuses a NUL character in text and jsonb, and
 * a lone surrogate (half of a UTF-16 pair, which `JSON.parse` makes from a
 * `"\ud800"` escape) in jsonb; a text column silently keeps U+FFFD instead.
 * The request pipeline refuses such strings at the edge (`InvalidText`);
 * imports, whose text comes from inside uploaded files, replace them.
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { excerpt } from "./Excerpt.js"

/** What makes a string unstorable; `invalid-utf-8` is for bytes that are not text at all. */
export const TextFlaw = Schema.Literal("nul-character", "lone-surrogate", "invalid-utf-8").annotations({
  identifier: "TextFlaw"
})
export type TextFlaw = typeof TextFlaw.Type

const describe: Record<TextFlaw, string> = {
  "nul-character": "a NUL character (U+0000)",
  "lone-surrogate": "a lone surrogate (half of a UTF-16 pair)",
  "invalid-utf-8": "bytes that are not UTF-8"
}

/** A string of the request holds text Parley cannot store; nothing of the request was done. */
export class InvalidText extends Schema.TaggedError<InvalidText>()(
  "InvalidText",
  {
    /** Where: `body.nodes[3].data.text`, `query.q`, `path.agent_id`, `header.user-agent`, or `body` for the whole body. */
    field: Schema.String,
    reason: TextFlaw,
    message: Schema.String
  },
  HttpApiSchema.annotations({
    status: 400,
    description: "A string holds a NUL character, a lone surrogate or bytes that are not UTF-8"
  })
) {
  static of(flawed: FlawedField): InvalidText {
    return new InvalidText({
      field: flawed.field,
      reason: flawed.flaw,
      message: `${flawed.inKey ? "The name of " : ""}${flawed.field} holds ${
        describe[flawed.flaw]
      }, which Parley cannot store`
    })
  }
}

/** A flawed string, and where it is. */
export interface FlawedField {
  readonly field: string
  readonly flaw: TextFlaw
  /** The flaw is in the name of the key `field` ends with, not in its value. */
  readonly inKey: boolean
}

const FLAW = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
const FLAWS = new RegExp(FLAW.source, "g")

/** Why `text` cannot be stored, if it cannot. */
export const flawOf = (text: string): TextFlaw | undefined => {
  const found = FLAW.exec(text)
  return found === null ? undefined : found[0] === "\0" ? "nul-character" : "lone-surrogate"
}

/** `text` with each NUL character and lone surrogate replaced by U+FFFD: storable, and as long as before. */
export const storable = (text: string): string => text.replace(FLAWS, "\uFFFD")

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/

/**
 * One step of a field path: `.name` for a plain name, `[3]` for an index,
 * `["a b"]` otherwise. JSON escaping keeps a flawed key printable, and a
 * long one is cut, so the path is itself storable and short.
 */
export const fieldStep = (key: string | number): string =>
  typeof key === "number"
    ? `[${key}]`
    : IDENTIFIER.test(key) && key.length <= 80
    ? `.${key}`
    : `[${excerpt(JSON.stringify(key), 80)}]`

interface Visit {
  readonly value: unknown
  readonly step: string
  readonly parent: Visit | undefined
}

const pathOf = (visit: Visit | undefined): string => {
  const steps: Array<string> = []
  for (let at = visit; at !== undefined; at = at.parent) steps.push(at.step)
  return steps.reverse().join("")
}

/**
 * A flawed string or object key in a JSON value (an object's keys are
 * looked at before its values), as a path under `root`
 * (`body.nodes[3].data.text`). Iterative, so no depth of nesting can overflow
 * the stack.
 */
export const findFlaw = (value: unknown, root: string): FlawedField | undefined => {
  const stack: Array<Visit> = [{ value, step: root, parent: undefined }]
  while (stack.length > 0) {
    const visit = stack.pop()!
    const current = visit.value
    if (typeof current === "string") {
      const flaw = flawOf(current)
      if (flaw !== undefined) return { field: pathOf(visit), flaw, inKey: false }
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) {
        stack.push({ value: current[index], step: fieldStep(index), parent: visit })
      }
    } else if (current !== null && typeof current === "object") {
      const keys = Object.keys(current)
      for (const key of keys) {
        const flaw = flawOf(key)
        if (flaw !== undefined) return { field: pathOf(visit) + fieldStep(key), flaw, inKey: true }
      }
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index]!
        stack.push({ value: (current as Record<string, unknown>)[key], step: fieldStep(key), parent: visit })
      }
    }
  }
  return undefined
}
