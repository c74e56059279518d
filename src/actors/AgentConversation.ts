/**
 * The protocol of the `AgentConversation` entity: one per AI-agent
 * conversation, addressed by its id. Its one message is a turn, persisted and
 * uninterruptible as the Assistants' `RuntimeSession` turn is (see there):
 * a turn survives the death of the node running it, a caller that gives up
 * does not stop it, and the message's primary key (workspace, idempotency key
 * and body hash) answers a repeat from storage. Unlike an Assistant turn, an
 * agent turn is long (model calls, tools), so it is made of durable steps and
 * a new owner resumes it from them (`AgentConversationLive`).
 */
import { ClusterSchema, Entity } from "@effect/cluster"
import { Rpc } from "@effect/rpc"
import { Schema } from "effect"
import * as Crypto from "node:crypto"
import { TurnMetadata, TurnVariables } from "../domain/aiAgents/AgentTurn.js"
import {
  AgentTurnFailed,
  AgentTurnOutcome,
  AgentTurnUpstreamFailed,
  TurnSource
} from "../domain/aiAgents/AgentTurnOutcome.js"
import { AiAgentConversationClosed, AiAgentConversationNotFound } from "../domain/aiAgents/Conversation.js"
import { AiAgentConversationId, AiAgentId, EndUserId } from "../domain/aiAgents/Ids.js"
import { IdempotencyKey, IdempotencyKeyReused } from "../domain/Idempotency.js"
import { WorkspaceId } from "../domain/identity/Ids.js"
import { Sha256Hex } from "../domain/Sha256Hex.js"
import { TraceId } from "../domain/Trace.js"

/** What a turn message carries. */
export const AgentTurnPayload = Schema.Struct({
  /** The caller's workspace: a conversation of another workspace is not found. */
  workspaceId: WorkspaceId,
  /** The agent the caller addressed: a conversation of another agent is not found. */
  agentId: AiAgentId,
  conversationId: AiAgentConversationId,
  source: TurnSource,
  /** The user's message (already trimmed and checked: 1 to 8000 characters, no NUL). */
  message: Schema.String,
  variables: TurnVariables,
  endUserId: Schema.NullOr(EndUserId),
  metadata: TurnMetadata,
  idempotencyKey: IdempotencyKey,
  /** SHA-256 of the request's canonical JSON: the same key with another body is refused. */
  bodyHash: Sha256Hex,
  traceId: TraceId,
  /**
   * Whether the request streams: the reply's text is then published as it is
   * written (`TurnDeltas`). Not part of the turn's identity: a repeat of the
   * key, streaming or not, is the same turn.
   */
  stream: Schema.optionalWith(Schema.Boolean, { default: () => false })
})
export type AgentTurnPayload = typeof AgentTurnPayload.Type

/** The message's primary key: the caller's workspace and source, with the key and body hashed together. */
export const agentTurnMessageKey = ({ bodyHash, idempotencyKey, source, workspaceId }: AgentTurnPayload): string =>
  `${workspaceId}/${source.kind === "draft" ? "draft" : `v${source.number}`}/${
    Crypto.createHash("sha256").update(`${idempotencyKey}\n${bodyHash}`).digest("hex")
  }`

/** One user message to a conversation. */
export const AgentTurn = Rpc.make("Turn", {
  payload: AgentTurnPayload.fields,
  success: AgentTurnOutcome,
  error: Schema.Union(
    AiAgentConversationNotFound,
    AiAgentConversationClosed,
    IdempotencyKeyReused,
    AgentTurnFailed,
    AgentTurnUpstreamFailed
  ),
  primaryKey: agentTurnMessageKey
}).annotate(ClusterSchema.Persisted, true)
  .annotate(ClusterSchema.Uninterruptible, true)

/** An AI-agent conversation as a cluster entity. */
export const AgentConversation = Entity.make("AgentConversation", [AgentTurn])
