/**
 * Filling an intent's slots from the message that matched it, with small
 * deterministic extractors: the built-in kinds (see `BuiltinEntities`), list
 * entities (a value or one of its synonyms as whole words, case and accents
 * aside; the longest phrase wins, then the earliest, and the slot takes the
 * value, not the synonym), and regex entities (the first match, or its first
 * group when it has one, on RE2: see `UserPattern`; a pattern Parley cannot
 * run finds nothing). The regex slots of one message share one budget of
 * work, `MAX_MATCH_WORK` (the largest pattern on the longest message), so an
 * intent of fifty costly patterns costs one search, not fifty: in slot order,
 * a pattern whose search would overspend it finds nothing. A slot that finds
 * nothing is left out.
 */
import type { Either } from "effect"
import type { EntityDefinition, Slot } from "../../assistants/Intent.js"
import type { JsonValue } from "../../Json.js"
import { MAX_MATCH_WORK, type UserPattern } from "../../patterns/UserPattern.js"
import { findDateTime, findEmail, findNumber, findPhone, findUrl } from "./BuiltinEntities.js"
import type { LocaleFormats } from "./LocaleFormats.js"
import { tokens } from "./Tokens.js"

/** What extraction needs besides the text: the locale and the program's compiled patterns. */
export interface SlotContext {
  readonly formats: LocaleFormats
  readonly pattern: (source: string) => Either.Either<UserPattern, string>
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

/** What is left of one message's work for regex slots. */
interface WorkLeft {
  units: number
}

const extract = (
  text: string,
  entity: typeof EntityDefinition.Type,
  context: SlotContext,
  work: WorkLeft
): JsonValue | undefined => {
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
      if (pattern._tag === "Left") return undefined
      const cost = pattern.right.workOn(text)
      if (cost > work.units) return undefined
      work.units -= cost
      return pattern.right.firstMatch(text)
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
  const work: WorkLeft = { units: MAX_MATCH_WORK }
  for (const slot of slots) {
    const value = extract(text, slot.entity, context, work)
    if (value !== undefined && !Object.hasOwn(filled, slot.name)) filled[slot.name] = value
  }
  return filled
}
