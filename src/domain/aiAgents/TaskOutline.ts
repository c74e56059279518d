/**
 * Task derivation without a model: a deterministic outline of a description.
 * The description (and the context, after it) is split into sentences and
 * their clauses; each clause with words in it becomes a task whose title is
 * its leading verb phrase (filler such as "the agent should" dropped), whose
 * goal is the clause as a sentence and whose one success criterion says the
 * clause was done. Titles never repeat (case-insensitively), titles the agent
 * already has are skipped, and at most `maxTasks` come out. Same input, same
 * output.
 */
import type { ProposedTask } from "./DerivedTasks.js"

/** What the outline reads. */
export interface OutlineInput {
  readonly description: string
  readonly context?: string | undefined
  readonly maxTasks: number
  /** Titles the agent already has: skipped, case-insensitively. */
  readonly existingTitles?: ReadonlyArray<string> | undefined
}

const TITLE_WORDS = 6
const TITLE_MAX = 120
const GOAL_MAX = 2000
const CRITERION_MAX = 500

/** Sentence ends, semicolons, line breaks and bullets. */
const SENTENCE = /[.!?;\n\r\u2022]+/u
/** Clause joints inside a sentence: ", and", ", then", " and then", " then ", ", also". */
const CLAUSE = /,\s*(?:and\s+then|and|then|also)\s+|\s+and\s+then\s+|\s+then\s+/iu
/** Leading filler before the verb phrase. */
const FILLER =
  /^(?:(?:the|this|our|my)\s+(?:agent|assistant|bot)\s+|it\s+|you\s+|we\s+|i\s+|please\s+|also\s+|first(?:ly)?,?\s+|next,?\s+|finally,?\s+|then\s+|and\s+)*(?:(?:should|must|will|shall|can|could|would|needs?\s+to|has\s+to|have\s+to|is\s+able\s+to|wants?\s+(?:it\s+)?to|helps?(?:\s+(?:users?|customers?|people))?(?:\s+to)?|to)\s+)*/iu

/** Control characters and lone surrogates out, whitespace collapsed. */
const clean = (text: string): string =>
  text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/gu, " ")
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "")
    .replace(/[ \t]+/gu, " ")

const hasWords = (text: string): boolean => /\p{L}/u.test(text)

const clip = (text: string, max: number): string => {
  const chars = Array.from(text)
  return chars.length <= max ? text : chars.slice(0, max - 1).join("").trimEnd() + "\u2026"
}

const capitalize = (text: string): string => text.charAt(0).toLocaleUpperCase("en") + text.slice(1)

/** The clauses of a text, in order, trimmed, each with at least one letter. */
export const clausesOf = (text: string): ReadonlyArray<string> =>
  clean(text)
    .split(SENTENCE)
    .flatMap((sentence) => sentence.split(CLAUSE))
    .map((clause) => clause.trim().replace(/^[,:\-\u2013\u2014*\s]+|[,:\-\u2013\u2014\s]+$/gu, ""))
    .filter(hasWords)

/** The leading verb phrase of a clause: filler dropped, at most six words, capitalized. */
export const titleOf = (clause: string): string => {
  const stripped = clause.replace(FILLER, "").trim()
  const words = (hasWords(stripped) ? stripped : clause).split(/\s+/u).slice(0, TITLE_WORDS)
  return clip(capitalize(words.join(" ").replace(/[,:]+$/u, "")), TITLE_MAX).trim()
}

const sentence = (clause: string): string => {
  const body = capitalize(clause.replace(FILLER, "").trim() || clause)
  return /[.!?]$/u.test(body) ? body : `${body}.`
}

/** The proposed tasks of the outline. */
export const outlineTasks = (input: OutlineInput): ReadonlyArray<ProposedTask> => {
  const taken = new Set((input.existingTitles ?? []).map((title) => title.trim().toLocaleLowerCase("en")))
  const max = Math.max(0, Math.floor(input.maxTasks))
  const tasks: Array<ProposedTask> = []
  for (const clause of [...clausesOf(input.description), ...clausesOf(input.context ?? "")]) {
    if (tasks.length >= max) break
    const title = titleOf(clause)
    const key = title.toLocaleLowerCase("en")
    if (title.length === 0 || taken.has(key)) continue
    taken.add(key)
    const goal = sentence(clause)
    tasks.push({
      title,
      goal: clip(goal, GOAL_MAX),
      successCriteria: [clip(`Done when: ${goal.charAt(0).toLocaleLowerCase("en")}${goal.slice(1)}`, CRITERION_MAX)]
    })
  }
  return tasks
}
