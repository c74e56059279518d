/**
 * What an accepted turn stores with itself (`ai_agent_turns.request`): the
 * message and its context, the snapshot it runs and the limits it runs under,
 * so that a node resuming it after a crash runs exactly what the first one
 * did, whatever was edited or published since.
 *
 * The input guardrails judge the message when the turn is accepted, and the
 * request stores their verdict with the message as they left it: a message
 * an input rule redacted is never stored as the user wrote it.
 */
import { Schema } from "effect"
import { Revision } from "../Revision.js"
import { TurnGuardrailEvent, TurnMetadata, TurnVariables } from "./AgentTurn.js"
import { TurnSource } from "./AgentTurnOutcome.js"
import { AiAgentSnapshot } from "./AiAgentSnapshot.js"
import { checkText, type TextVerdict } from "./guardrails/GuardrailCheck.js"
import { EndUserId } from "./Ids.js"
import { LoopLimits } from "./loop/AgentLoop.js"
import { GuardrailStopped } from "./loop/LoopStep.js"

/** The input guardrails' verdict on the message: whether they rewrote it, their hits, and a stop. */
export const InputVerdict = Schema.Struct({
  redacted: Schema.Boolean,
  events: Schema.Array(TurnGuardrailEvent),
  stop: Schema.NullOr(GuardrailStopped)
}).annotations({ identifier: "InputVerdict" })

export const AgentTurnRequest = Schema.Struct({
  source: TurnSource,
  /** The user's message after the input guardrails. */
  message: Schema.String,
  /** Absent in turns stored before guardrails: judged then from `message`. */
  input: Schema.optional(InputVerdict),
  variables: TurnVariables,
  metadata: TurnMetadata,
  endUserId: Schema.NullOr(EndUserId),
  snapshot: AiAgentSnapshot,
  /** The draft revision the snapshot was read at; null for a version. */
  revision: Schema.NullOr(Revision),
  limits: LoopLimits,
  /** The workspace's handoff target when the turn began (agent-ops), as the outcome names it. */
  handoffTarget: Schema.NullOr(Schema.String)
}).annotations({ identifier: "AgentTurnRequest" })
export type AgentTurnRequest = typeof AgentTurnRequest.Type

/** The input guardrails' verdict a turn runs under: the stored one, or (older turns) judged again. */
export const inputOf = (request: AgentTurnRequest): TextVerdict =>
  request.input === undefined
    ? checkText(request.snapshot.guardrails, "input", request.message)
    : { text: request.message, ...request.input }
