/**
 * The protocol of the `RuntimeSession` entity: one per Assistant conversation,
 * addressed by the session id. Its one message is a turn. The mailbox is
 * persisted, so a turn survives the death of the node that was running it;
 * the message's primary key is the turn's idempotency key together with a
 * hash of its body, so a repeated request is answered from storage without
 * running again, while the same key with another body reaches the entity and
 * is refused there. The caller's workspace is part of the key too, so a
 * request from another workspace is never taken for a repeat.
 */
import { ClusterSchema, Entity } from "@effect/cluster"
import { Rpc } from "@effect/rpc"
import { Schema } from "effect"
import { DeploymentId } from "../domain/assistants/Deployment.js"
import { IdempotencyKey, IdempotencyKeyReused } from "../domain/Idempotency.js"
import { WorkspaceId } from "../domain/identity/Ids.js"
import { RuntimeSessionEnded, RuntimeSessionNotFound } from "../domain/runtime/RuntimeSession.js"
import { SimulatedTurnReply, TurnInput } from "../domain/runtime/Turn.js"
import { Sha256Hex } from "../domain/Sha256Hex.js"
import { TraceId } from "../domain/Trace.js"

/** One user message to a conversation. */
export const Turn = Rpc.make("Turn", {
  payload: {
    /** The workspace the caller acts in: a session of another workspace is not found. */
    workspaceId: WorkspaceId,
    /**
     * The deployment the caller speaks for (an embed token's), or `null` for an
     * editor testing the draft: a session of another deployment, or a visitor's
     * session reached through the editors' route, is not found.
     */
    deploymentId: Schema.NullOr(DeploymentId),
    input: TurnInput,
    idempotencyKey: IdempotencyKey,
    /** SHA-256 of the input's canonical JSON: the same key with another body is refused. */
    bodyHash: Sha256Hex,
    /** The trace of the request that sent the turn, stored with its result. */
    traceId: TraceId
  },
  success: SimulatedTurnReply,
  error: Schema.Union(RuntimeSessionNotFound, RuntimeSessionEnded, IdempotencyKeyReused),
  // The caller's workspace and deployment are part of it: a repeat is answered from storage without reaching
  // the handler's checks, so another caller's request must never be a repeat of this one's. The UUIDs (or
  // "draft") and the hash have fixed forms at either end, so the key between them may hold any character.
  primaryKey: ({ bodyHash, deploymentId, idempotencyKey, workspaceId }) =>
    `${workspaceId}/${deploymentId ?? "draft"}/${idempotencyKey}/${bodyHash}`
}).annotate(ClusterSchema.Persisted, true)

/** An Assistant conversation as a cluster entity. */
export const RuntimeSession = Entity.make("RuntimeSession", [Turn])
