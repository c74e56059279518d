/**
 * The Idempotency-Key every outgoing tool request of an agent turn carries,
 * so a tool whose call is retried (the node died after sending it, and the
 * turn's new owner runs the call again) can recognise the repeat and act
 * once. Derived only from where the call sits: its conversation, turn, step
 * (the index its tool step is reserved, fixed before the call runs) and the
 * model's call id, so every node computes the same key. `pty_` and the first
 * 60 hex digits of a SHA-256 over the canonical JSON of the four: 64
 * characters, visible ASCII, and 240 bits leave no practical collision.
 */
import * as Crypto from "node:crypto"
import { canonicalJson } from "../../CanonicalJson.js"

/** Where a tool call sits: the turn's number in its conversation, and the step index of the call. */
export interface ToolCallPlace {
  readonly conversationId: string
  readonly turn: number
  readonly step: number
  readonly callId: string
}

/** The key of one tool call: equal places give equal keys, any difference another key. */
export const toolIdempotencyKey = ({ callId, conversationId, step, turn }: ToolCallPlace): string =>
  "pty_" +
  Crypto.createHash("sha256").update(canonicalJson({ conversationId, turn, step, callId })).digest("hex").slice(0, 60)
