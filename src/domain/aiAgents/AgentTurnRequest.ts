/**
 * What an accepted turn stores with itself (`ai_agent_turns.request`): the
 * message and its context, the snapshot it runs and the limits it runs under,
 * so that a node resuming it after a crash runs exactly what the first one
 * did, whatever was edited or published since.
 */
import { Schema } from "effect"
import { Revision } from "../Revision.js"
import { TurnMetadata, TurnVariables } from "./AgentTurn.js"
import { TurnSource } from "./AgentTurnOutcome.js"
import { AiAgentSnapshot } from "./AiAgentSnapshot.js"
import { EndUserId } from "./Ids.js"
import { LoopLimits } from "./loop/AgentLoop.js"

export const AgentTurnRequest = Schema.Struct({
  source: TurnSource,
  message: Schema.String,
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
