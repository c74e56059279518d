import { Schema } from "effect"
import { IdempotencyKey } from "../Idempotency.js"
import { BotMessage } from "./BotMessage.js"
import { RuntimeSession, RuntimeSessionId, SessionStatus } from "./RuntimeSession.js"
import { TurnInput, TurnNumber } from "./Turn.js"

/** What the user sent in a turn, with the turn's idempotency key (the client's, or one the server made). */
export const UserEntry = Schema.Struct({
  role: Schema.Literal("user"),
  turn: TurnNumber,
  input: TurnInput,
  at: Schema.DateTimeUtc,
  idempotencyKey: IdempotencyKey
}).annotations({ identifier: "TranscriptUserEntry" })

/** What the bot answered in a turn (turn 0: the opening). */
export const BotEntry = Schema.Struct({
  role: Schema.Literal("bot"),
  turn: TurnNumber,
  messages: Schema.Array(BotMessage),
  at: Schema.DateTimeUtc
}).annotations({ identifier: "TranscriptBotEntry" })

/** One entry of a conversation's transcript. */
export const TranscriptEntry = Schema.Union(UserEntry, BotEntry).annotations({ identifier: "TranscriptEntry" })
export type TranscriptEntry = typeof TranscriptEntry.Type

/** `GET /runtime/sessions/{id}`: the session with its state, and its transcript, oldest first. */
export const SessionTranscript = Schema.Struct({
  session: RuntimeSession.json,
  transcript: Schema.Array(TranscriptEntry)
}).annotations({ identifier: "RuntimeSessionTranscript" })

/**
 * `GET /public/runtime/sessions/{id}`: what a widget needs to reconnect (the
 * status and the transcript), without the session's variables.
 */
export const PublicSessionTranscript = Schema.Struct({
  sessionId: RuntimeSessionId,
  status: SessionStatus,
  ended: Schema.Boolean,
  /** The number of the last turn. */
  turn: TurnNumber,
  startedAt: Schema.DateTimeUtc,
  transcript: Schema.Array(TranscriptEntry)
}).annotations({ identifier: "PublicSessionTranscript" })
