/**
 * A piece of a streaming turn's reply on its way from the node running the
 * turn to the node holding the request (PostgreSQL NOTIFY on one channel,
 * read by every node): which turn (conversation and idempotency key), the
 * owner epoch that ran it, the model step, the piece's number, where it
 * begins in the step's text, and the text. A NOTIFY payload holds at most 8000 bytes, so a long
 * piece is sent in parts of `MAX_PIECE` characters.
 */
import { Schema } from "effect"

/** The channel every node listens on. */
export const TURN_DELTAS_CHANNEL = "parley_agent_turn_deltas"

/** At most this many UTF-16 units of text per notification (JSON-escaped, well under 8000 bytes). */
export const MAX_PIECE = 1000

export const TurnDelta = Schema.Struct({
  conversationId: Schema.String,
  idempotencyKey: Schema.String,
  epoch: Schema.Int,
  step: Schema.Int,
  seq: Schema.Int,
  /** Where the piece begins in its step's text (UTF-16 units). */
  offset: Schema.Int,
  delta: Schema.String
})
export type TurnDelta = typeof TurnDelta.Type

/** `text` cut into parts of at most `max` units, never inside a surrogate pair. */
export const pieces = (text: string, max = MAX_PIECE): Array<string> => {
  const out: Array<string> = []
  let at = 0
  while (at < text.length) {
    let end = Math.min(text.length, at + max)
    const last = text.charCodeAt(end - 1)
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--
    out.push(text.slice(at, end))
    at = end
  }
  return out
}

/**
 * What a stream has shown of a turn's text. Each model step's text arrives
 * as pieces (live, and lost when a notification is) and, once the step is
 * stored, whole; the view follows one step at a time and shows each
 * character once, in order:
 *
 * - `step`: the step whose text it is showing; `shown`: how much of it,
 *   from its start; `text`: what that is, when known (a stream resumed by
 *   `Last-Event-ID` knows only how much the client saw);
 * - `gapped`: a piece of the step went missing, so no later piece of it is
 *   shown; the stored text fills in from `shown`;
 * - `epochs`: the owner epoch of each step's text; a step seen under two
 *   (a node died mid-answer and its successor wrote the step again) makes
 *   the rest unreliable (`diverged`): nothing more is shown, and the turn's
 *   stored answer (`message.done`) settles it.
 */
export interface DeltaView {
  readonly epochs: ReadonlyMap<number, number>
  readonly step: number
  readonly shown: number
  readonly text: string | null
  readonly gapped: boolean
  readonly diverged: boolean
}

export const emptyView: DeltaView = {
  epochs: new Map(),
  step: -1,
  shown: 0,
  text: "",
  gapped: false,
  diverged: false
}

/** The view of a stream whose client saw `shown` characters of step `step`'s text (Infinity: all of it). */
export const resumedView = (step: number, shown: number): DeltaView => ({ ...emptyView, step, shown, text: null })

/** What to show: the view after it, and the text (empty for nothing). */
export interface Seen {
  readonly view: DeltaView
  readonly text: string
}

/** `text` from `at` on, never starting inside a surrogate pair. */
const from = (text: string, at: number): string => {
  const low = text.charCodeAt(at)
  return text.slice(at > 0 && low >= 0xdc00 && low <= 0xdfff ? at - 1 : at)
}

/** The same step's view after `epoch` wrote to it; diverged when another epoch did before. */
const inEpoch = (view: DeltaView, step: number, epoch: number): DeltaView | null => {
  const known = view.epochs.get(step)
  return known !== undefined && known !== epoch ? null : { ...view, epochs: new Map(view.epochs).set(step, epoch) }
}

/** The view after the live piece `delta`, and what of it to show. */
export const seeDelta = (view: DeltaView, delta: TurnDelta): Seen => {
  // A piece of an earlier step arrives late, or the client saw that step before it resumed.
  if (view.diverged || delta.step < view.step) return { view, text: "" }
  const epoched = inEpoch(view, delta.step, delta.epoch)
  if (epoched === null) return { view: { ...view, diverged: true }, text: "" }
  const current = delta.step === view.step
    ? epoched
    : { ...epoched, step: delta.step, shown: 0, text: "", gapped: false }
  if (current.gapped || delta.offset > current.shown) return { view: { ...current, gapped: true }, text: "" }
  const end = delta.offset + delta.delta.length
  if (end <= current.shown) return { view: current, text: "" }
  const text = from(delta.delta, current.shown - delta.offset)
  return {
    view: { ...current, shown: end, text: current.text === null ? null : current.text + text },
    text
  }
}

/** The view after model step `step`'s stored text (written under `epoch`), and what of it is still to show. */
export const seeStoredText = (view: DeltaView, step: number, epoch: number, stored: string): Seen => {
  if (view.diverged || step < view.step) return { view, text: "" }
  const epoched = inEpoch(view, step, epoch)
  if (epoched === null) return { view: { ...view, diverged: true }, text: "" }
  const shown = step === view.step ? Math.min(view.shown, stored.length) : 0
  // What the pieces showed must begin the stored text; otherwise the answer settles it.
  const known = step === view.step ? view.text : ""
  if (known !== null && !stored.startsWith(known.slice(0, shown))) {
    return { view: { ...epoched, diverged: true }, text: "" }
  }
  return {
    view: { ...epoched, step, shown: stored.length, text: stored, gapped: false },
    text: from(stored, shown)
  }
}

/**
 * What is still to be shown of the final reply `content` once the turn has
 * ended and its last model step was seen: the rest of it after what the
 * last step showed (all of it when that showed nothing, as a handoff's
 * words), nothing when what was shown went another way (the answer settles it).
 */
export const remainder = (view: DeltaView, content: string): string => {
  if (view.diverged) return ""
  const shown = Math.min(view.shown, content.length)
  if (view.text !== null && !content.startsWith(view.text.slice(0, shown))) return ""
  return from(content, shown)
}
