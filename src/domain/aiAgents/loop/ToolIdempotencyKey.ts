/**
 * The Idempotency-Key every outgoing tool request of an agent turn carries,
 * so a tool whose call is retried (the node died after sending it, and the
 * turn's new owner runs the call again) can recognise the repeat and act
 * once. Derived only from where the call sits: its conversation, turn, step
 * (the index its tool step is reserved, fixed before the call runs) and the
 * model's call id, so every node computes the same key: `pty_` and the
 * hash of the four (`PlaceIdempotencyKey`), 64 characters.
 */
import { placeIdempotencyKey } from "../../PlaceIdempotencyKey.js"

/** Where a tool call sits: the turn's number in its conversation, and the step index of the call. */
export interface ToolCallPlace {
  readonly conversationId: string
  readonly turn: number
  readonly step: number
  readonly callId: string
}

/** The key of one tool call: equal places give equal keys, any difference another key. */
export const toolIdempotencyKey = ({ callId, conversationId, step, turn }: ToolCallPlace): string =>
  placeIdempotencyKey("pty_", { conversationId, turn, step, callId })
