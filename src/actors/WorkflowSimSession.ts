/**
 * The protocol of the `WorkflowSimSession` entity: one per simulator session,
 * addressed by the session id, running a snapshot of a workflow's draft
 * conversationally. Two messages: `Open` runs the opening (turn 0: from the
 * trigger to the first input or wait, or the end) once; `Turn` hands the next
 * message or payload to the wait the session stands at and runs on to the
 * next one (running the opening first, should its message not have come
 * yet). Both are persisted and uninterruptible, as the Assistants'
 * `RuntimeSession` turn (see there): a turn survives the death of the node
 * running it, a caller that gives up does not stop it, and the message's
 * primary key (the caller's workspace, the idempotency key and the body hash)
 * answers a repeat from storage. The same key with another body reaches the
 * entity and is refused (`IdempotencyKeyReused`).
 *
 * Bounds: `MAX_SIM_TURNS` turns after the opening (the session then ends
 * `failed`), and the interpreter's `MAX_NODE_EXECUTIONS` node executions
 * over the whole session, replays included (a `max-iterations` failure): so
 * a session's journal holds at most that many results.
 */
import { ClusterSchema, Entity } from "@effect/cluster"
import { Rpc } from "@effect/rpc"
import { Schema } from "effect"
import * as Crypto from "node:crypto"
import { ValidationFailed } from "../domain/HttpErrors.js"
import { IdempotencyKey, IdempotencyKeyReused } from "../domain/Idempotency.js"
import { WorkspaceId } from "../domain/identity/Ids.js"
import { Sha256Hex } from "../domain/Sha256Hex.js"
import { TraceId } from "../domain/Trace.js"
import { WorkflowSimSessionEnded, WorkflowSimSessionNotFound } from "../domain/workflows/WorkflowSimSession.js"
import { WorkflowSimTurnRequest, WorkflowSimTurnResult } from "../domain/workflows/WorkflowSimTurn.js"

/** The most turns a session takes after its opening; the last one ends it `failed` if it still waits. */
export const MAX_SIM_TURNS = 500

/** What the opening message carries. */
export const SimOpenPayload = Schema.Struct({
  /** The caller's workspace: a session of another workspace is not found. */
  workspaceId: WorkspaceId,
  traceId: TraceId
})
export type SimOpenPayload = typeof SimOpenPayload.Type

/** What a turn message carries. */
export const SimTurnPayload = Schema.Struct({
  /** The caller's workspace: a session of another workspace is not found. */
  workspaceId: WorkspaceId,
  message: WorkflowSimTurnRequest,
  idempotencyKey: IdempotencyKey,
  /** SHA-256 of the message's canonical JSON: the same key with another body is refused. */
  bodyHash: Sha256Hex,
  traceId: TraceId
})
export type SimTurnPayload = typeof SimTurnPayload.Type

/**
 * A turn message's primary key: the caller's workspace (another workspace's
 * request is never a repeat of this one's) and the idempotency key hashed
 * with the body hash, so it fits the cluster's message id whatever the key's
 * length.
 */
export const simTurnMessageKey = ({ bodyHash, idempotencyKey, workspaceId }: SimTurnPayload): string =>
  `${workspaceId}/${Crypto.createHash("sha256").update(`${idempotencyKey}\n${bodyHash}`).digest("hex")}`

/** The session's opening run (turn 0), once. */
export const SimOpen = Rpc.make("Open", {
  payload: SimOpenPayload.fields,
  success: WorkflowSimTurnResult,
  error: WorkflowSimSessionNotFound,
  primaryKey: ({ workspaceId }) => `${workspaceId}/open`
}).annotate(ClusterSchema.Persisted, true)
  .annotate(ClusterSchema.Uninterruptible, true)

/** One message or payload to the session. */
export const SimTurn = Rpc.make("Turn", {
  payload: SimTurnPayload.fields,
  success: WorkflowSimTurnResult,
  error: Schema.Union(
    WorkflowSimSessionNotFound,
    WorkflowSimSessionEnded,
    IdempotencyKeyReused,
    ValidationFailed
  ),
  primaryKey: simTurnMessageKey
}).annotate(ClusterSchema.Persisted, true)
  .annotate(ClusterSchema.Uninterruptible, true)

/** A workflow simulator session as a cluster entity. */
export const WorkflowSimSession = Entity.make("WorkflowSimSession", [SimOpen, SimTurn])
