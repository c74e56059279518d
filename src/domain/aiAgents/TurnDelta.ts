/**
 * A piece of a streaming turn's reply on its way from the node running the
 * turn to the node holding the request (PostgreSQL NOTIFY on one channel,
 * read by every node): which turn (conversation and idempotency key), the
 * owner epoch that ran it, the model step, the piece's number within the
 * step, and the text. A NOTIFY payload holds at most 8000 bytes, so a long
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
 * What a stream shows of the deltas of one turn. Steps are followed in the
 * order they arrive; a step seen again under another epoch (a node died and
 * the new owner ran the step again) makes the rest unreliable (`diverged`):
 * nothing more is shown, and the final answer settles it.
 */
export interface DeltaView {
  readonly epochs: ReadonlyMap<number, number>
  readonly lastStep: number
  /** The text shown of the last step. */
  readonly lastText: string
  readonly diverged: boolean
}

export const emptyView: DeltaView = { epochs: new Map(), lastStep: -1, lastText: "", diverged: false }

/** The view after `delta`, and whether to show it. */
export const seeDelta = (view: DeltaView, delta: TurnDelta): { readonly view: DeltaView; readonly show: boolean } => {
  if (view.diverged) return { view, show: false }
  const epoch = view.epochs.get(delta.step)
  if ((epoch !== undefined && epoch !== delta.epoch) || delta.step < view.lastStep) {
    return { view: { ...view, diverged: true }, show: false }
  }
  const epochs = new Map(view.epochs).set(delta.step, delta.epoch)
  const lastText = delta.step === view.lastStep ? view.lastText + delta.delta : delta.delta
  return { view: { epochs, lastStep: delta.step, lastText, diverged: false }, show: true }
}

/**
 * What is still to be shown of the final reply `content` once the turn has
 * ended: all of it when nothing was streamed, the rest of it when the last
 * step's streamed text begins it (its last pieces may arrive after the
 * answer), nothing when what was shown went another way (the answer settles it).
 */
export const remainder = (view: DeltaView, content: string): string => {
  if (view.lastStep < 0) return content
  if (view.diverged || !content.startsWith(view.lastText)) return ""
  return content.slice(view.lastText.length)
}
