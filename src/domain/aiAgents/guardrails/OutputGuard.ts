/**
 * Output guardrails on a reply that is shown as it is written. The reply's
 * pieces go in (`push`), the text that may be shown comes out; the whole of
 * what came out is the reply (the step stores exactly that), so a streamed
 * and a stored reply never differ.
 *
 * A piece is judged when it cannot change any more: the guard holds back
 * the tail that might still grow into personal data (the word being
 * written, and before it the words with a digit, an `@` or a `+`, and, when
 * names, addresses or national ids (`AB 12 34 56 C`) are guarded,
 * capitalised words), at most `HOLD`
 * characters of whole words, and judges the rest with what was shown before
 * as context (`checkText`'s `PieceContext`). Without `pii` rules nothing is
 * held back. A rule that blocks or hands off stops the reply: the piece it
 * hit is not shown, nor anything after it, and `stop` says which rule.
 */
import type { TurnGuardrailEvent } from "../AgentTurn.js"
import { checkText, type GuardrailStop, type SnapshotGuardrail, textGuardrails } from "./GuardrailCheck.js"

/** The most text held back behind the shown reply, unless one word is longer (held whole, to `MAX_WORD`). */
export const HOLD = 120

/** A word longer than this is judged as it stands. */
export const MAX_WORD = 2000

/** How much context before a piece its rules read. */
const CONTEXT = 200

export interface OutputGuard {
  /** The part of the reply that may be shown now (often empty while a word is being written). */
  readonly push: (delta: string) => string
  /** The end of the reply: the rest that may be shown. */
  readonly end: () => string
  /** Everything shown so far: the reply as stored. */
  readonly shown: () => string
  readonly redacted: () => boolean
  /** One event per rule that hit, its details joined. */
  readonly events: () => ReadonlyArray<TurnGuardrailEvent>
  readonly stop: () => GuardrailStop | null
}

const isSpace = (char: string) => /\s/u.test(char)

/** Where the text that may be judged now ends in `pending` (0: nothing yet). */
export const judgeableEnd = (pending: string, capitals: boolean): number => {
  const sensitive = (word: string) => /[\d@+]/.test(word) || (capitals && /^[("'“]?\p{Lu}/u.test(word))
  let end = pending.length
  // The word being written.
  while (end > 0 && !isSpace(pending[end - 1]!)) end--
  if (end === 0) return pending.length > MAX_WORD ? pending.length : 0
  // The words before it that may be the start of a value.
  while (end > 0) {
    let wordEnd = end
    while (wordEnd > 0 && isSpace(pending[wordEnd - 1]!)) wordEnd--
    let wordStart = wordEnd
    while (wordStart > 0 && !isSpace(pending[wordStart - 1]!)) wordStart--
    if (wordStart === wordEnd || !sensitive(pending.slice(wordStart, wordEnd))) break
    if (pending.length - wordStart > HOLD) break
    end = wordStart
  }
  return end
}

/** The guard of one reply under the output guardrails, or undefined when none reads text. */
export const outputGuard = (guardrails: ReadonlyArray<SnapshotGuardrail>): OutputGuard | undefined => {
  const rules = textGuardrails(guardrails, "output")
  if (rules.length === 0) return undefined
  const pii = rules.filter((guardrail) => guardrail.rule.kind === "pii")
  const holds = pii.length > 0
  const capitals = pii.some((guardrail) =>
    guardrail.rule.kind === "pii" &&
    guardrail.rule.types.some((type) => type === "person-name" || type === "postal-address" || type === "national-id")
  )
  let shown = ""
  let pending = ""
  let redacted = false
  let stop: GuardrailStop | null = null
  const hits = new Map<string, { readonly event: TurnGuardrailEvent; readonly details: Array<string> }>()

  const judge = (piece: string): string => {
    const verdict = checkText(rules, "output", piece, { before: shown.slice(-CONTEXT), shownLength: shown.length })
    for (const event of verdict.events) {
      const known = hits.get(event.guardrailId)
      if (known === undefined) hits.set(event.guardrailId, { event, details: [event.detail] })
      else if (!known.details.includes(event.detail)) known.details.push(event.detail)
    }
    if (verdict.stop !== null) {
      stop = verdict.stop
      return ""
    }
    if (verdict.redacted) redacted = true
    shown += verdict.text
    return verdict.text
  }

  const take = (upTo: number): string => {
    if (stop !== null || upTo === 0) return ""
    const piece = pending.slice(0, upTo)
    pending = pending.slice(upTo)
    return judge(piece)
  }

  return {
    push: (delta) => {
      if (stop !== null) return ""
      pending += delta
      return take(holds ? judgeableEnd(pending, capitals) : pending.length)
    },
    end: () => take(pending.length),
    shown: () => shown,
    redacted: () => redacted,
    events: () =>
      [...hits.values()].map(({ details, event }) => ({ ...event, detail: details.join("; ").slice(0, 500) })),
    stop: () => stop
  }
}
