/**
 * The protocol of the `RuntimeSession` entity: one per Assistant conversation,
 * addressed by the session id. Its one message is a turn. The mailbox is
 * persisted, so a turn survives the death of the node that was running it;
 * the message's primary key is the turn's idempotency key together with a
 * hash of its body, so a repeated request is answered from storage without
 * running again, while the same key with another body reaches the entity and
 * is refused there. The caller's workspace is part of the key too, so a
 * request from another workspace is never taken for a repeat.
 *
 * A turn is uninterruptible: once its message is stored it runs to its end
 * whatever becomes of the request that sent it. A caller that gives up does
 * not interrupt it (the cluster would otherwise store the interruption as the
 * message's final answer, and every repeat of the key would get it), and a
 * repeat of its key waits for that end.
 */
import { ClusterSchema, Entity } from "@effect/cluster"
import { Rpc } from "@effect/rpc"
import { Schema } from "effect"
import * as Crypto from "node:crypto"
import { DeploymentId } from "../domain/deployments/Deployment.js"
import { IdempotencyKey, IdempotencyKeyReused } from "../domain/Idempotency.js"
import { WorkspaceId } from "../domain/identity/Ids.js"
import { RuntimeSessionEnded, RuntimeSessionNotFound, TurnFailed } from "../domain/runtime/RuntimeSession.js"
import { SimulatedTurnReply, TurnInput } from "../domain/runtime/Turn.js"
import { Sha256Hex } from "../domain/Sha256Hex.js"
import { TraceId } from "../domain/Trace.js"

/** What a turn message carries. */
export const TurnPayload = Schema.Struct({
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
})
export type TurnPayload = typeof TurnPayload.Type

/**
 * The turn message's primary key: a repeat is answered from storage without
 * reaching the handler's checks, so the caller's workspace and deployment are
 * part of it (another caller's request must never be a repeat of this one's).
 * The idempotency key and the body hash are hashed together, so the key fits
 * the cluster's 255-character message id whatever the idempotency key's length.
 */
export const turnMessageKey = ({ bodyHash, deploymentId, idempotencyKey, workspaceId }: TurnPayload): string =>
  `${workspaceId}/${deploymentId ?? "draft"}/${
    Crypto.createHash("sha256").update(`${idempotencyKey}\n${bodyHash}`).digest("hex")
  }`

/** One user message to a conversation. */
export const Turn = Rpc.make("Turn", {
  payload: TurnPayload.fields,
  success: SimulatedTurnReply,
  error: Schema.Union(RuntimeSessionNotFound, RuntimeSessionEnded, IdempotencyKeyReused, TurnFailed),
  primaryKey: turnMessageKey
}).annotate(ClusterSchema.Persisted, true)
  // Neither the sender's interruption nor (outside a shutdown, where the message stays stored for the next
  // owner) any other reaches a running turn: an interrupted handler is run again, never answered "interrupted".
  .annotate(ClusterSchema.Uninterruptible, true)

/** An Assistant conversation as a cluster entity. */
export const RuntimeSession = Entity.make("RuntimeSession", [Turn])
