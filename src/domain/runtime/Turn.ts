/**
 * One turn of an Assistant conversation: the user's input in, the bot's
 * messages out. The reply has one shape on the authenticated and the public
 * routes; the authenticated (test) routes add the full state and what the
 * engine did, which public callers never see (variables may hold what tools
 * returned).
 */
import { Schema } from "effect"
import { FlowNodeId } from "../assistants/FlowIds.js"
import { IntentName } from "../assistants/Intent.js"
import { JsonValue } from "../Json.js"
import { TraceId } from "../Trace.js"
import { BotMessage } from "./BotMessage.js"
import { RuntimeSessionId, SessionState, SessionStatus } from "./RuntimeSession.js"

/** A turn's number in its session: 0 is the opening, each user message adds one. */
export const TurnNumber = Schema.Number.pipe(Schema.int(), Schema.nonNegative())

/** What the user typed. */
export const TextInput = Schema.Struct({
  text: Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(4000))
}).annotations({ identifier: "TurnTextInput", examples: [{ text: "Where is my order?" }] })

/** The payload of the button or quick reply the user chose. */
export const PayloadInput = Schema.Struct({
  payload: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(256))
}).annotations({ identifier: "TurnPayloadInput" })

/** The body of a turn: `{ text }` or `{ payload }`, exactly one. Unknown fields are refused. */
export const TurnInput = Schema.Union(TextInput, PayloadInput).annotations({
  identifier: "TurnInput",
  parseOptions: { onExcessProperty: "error" }
})
export type TurnInput = typeof TurnInput.Type

/** The bot's answer to a turn (or, as turn 0, the opening of a new session). */
export const TurnReply = Schema.Struct({
  sessionId: RuntimeSessionId,
  turn: TurnNumber,
  messages: Schema.Array(BotMessage),
  status: SessionStatus,
  /** The session is final (`ended` or `handed-off`): further turns are a 409. */
  ended: Schema.Boolean,
  /** The trace of the request that ran the turn (also in `x-trace-id`). */
  traceId: TraceId
}).annotations({ identifier: "TurnReply" })
export type TurnReply = typeof TurnReply.Type

/** How the classifier read the user's message. */
export const NluPrediction = Schema.Struct({
  /** The intent above the threshold, or `null` (out of scope). */
  intent: Schema.NullOr(IntentName),
  confidence: Schema.Number.pipe(Schema.between(0, 1)),
  /** The best candidates, best first (at most 5). */
  ranking: Schema.Array(Schema.Struct({ intent: IntentName, confidence: Schema.Number.pipe(Schema.between(0, 1)) }))
    .pipe(Schema.maxItems(5)),
  slots: Schema.Record({ key: Schema.String, value: JsonValue })
}).annotations({ identifier: "NluPrediction" })

/** A test turn's reply: the reply, the state afterwards, and the nodes visited with what the classifier saw. */
export const SimulatedTurnReply = Schema.Struct({
  ...TurnReply.fields,
  state: SessionState,
  debug: Schema.Struct({
    /** The nodes the turn went through, in order. */
    path: Schema.Array(FlowNodeId),
    /** `null` when no intent router read the message. */
    nlu: Schema.NullOr(NluPrediction)
  })
}).annotations({ identifier: "SimulatedTurnReply" })
export type SimulatedTurnReply = typeof SimulatedTurnReply.Type
