/**
 * Filling an intent's slots from the message that matched it, with small
 * deterministic extractors: the built-in kinds (see `BuiltinEntities`), list
 * entities (a value or one of its synonyms as whole words, case and accents
 * aside; the longest phrase wins, then the earliest, and the slot takes the
 * value, not the synonym), and regex entities (the first match, or its first
 * group when it has one, under the `SafeRegex` guard; a refused pattern finds
 * nothing). A slot that finds nothing is left out.
 */
import type { Either } from "effect"
import type { EntityDefinition, Slot } from "../../assistants/Intent.js"
import type { JsonValue } from "../../Json.js"
import { findDateTime, findEmail, findNumber, findPhone, findUrl } from "./BuiltinEntities.js"
import type { LocaleFormats } from "./LocaleFormats.js"
import { findMatch } from "./SafeRegex.js"
import { tokens } from "./Tokens.js"

/** What extraction needs besides the text: the locale and the program's compiled patterns. */
export interface SlotContext {
  readonly formats: LocaleFormats
  readonly pattern: (source: string) => Either.Either<RegExp, string>
}

type ListValue = Extract<typeof EntityDefinition.Type, { readonly kind: "list" }>["values"][number]

const phraseAt = (words: ReadonlyArray<string>, phrase: ReadonlyArray<string>): number => {
  if (phrase.length === 0) return -1
  for (let start = 0; start + phrase.length <= words.length; start++) {
    if (phrase.every((word, offset) => words[start + offset] === word)) return start
  }
  return -1
}

const findListValue = (text: string, values: ReadonlyArray<ListValue>): string | undefined => {
  const words = tokens(text)
  let best: { readonly value: string; readonly length: number; readonly at: number } | undefined
  for (const entry of values) {
    for (const phrase of [entry.value, ...entry.synonyms]) {
      const phraseWords = tokens(phrase)
      const at = phraseAt(words, phraseWords)
      if (at < 0) continue
      if (
        best === undefined || phraseWords.length > best.length || (phraseWords.length === best.length && at < best.at)
      ) {
        best = { value: entry.value, length: phraseWords.length, at }
      }
    }
  }
  return best?.value
}

const extract = (text: string, entity: typeof EntityDefinition.Type, context: SlotContext): JsonValue | undefined => {
  switch (entity.kind) {
    case "number":
      return findNumber(text, context.formats)
    case "email":
      return findEmail(text)
    case "url":
      return findUrl(text)
    case "phone":
      return findPhone(text)
    case "datetime":
      return findDateTime(text, context.formats)
    case "list":
      return findListValue(text, entity.values)
    case "regex": {
      const pattern = context.pattern(entity.pattern)
      return pattern._tag === "Right" ? findMatch(pattern.right, text) : undefined
    }
  }
}

/** The slots `text` fills, by slot name. */
export const extractSlots = (
  text: string,
  slots: ReadonlyArray<typeof Slot.Type>,
  context: SlotContext
): { readonly [name: string]: JsonValue } => {
  const filled: Record<string, JsonValue> = {}
  for (const slot of slots) {
    const value = extract(text, slot.entity, context)
    if (value !== undefined && !Object.hasOwn(filled, slot.name)) filled[slot.name] = value
  }
  return filled
}
