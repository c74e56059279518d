/**
 * An Assistant conversation, run by the `RuntimeSession` cluster entity: on
 * the draft (an editor testing through `/runtime/sessions`) or on a
 * deployment (an embed through `/public/runtime/sessions`). Its state is
 * written after every turn together with the turn's result, so a redelivered
 * turn answers what it answered the first time.
 */
import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { EndUserId } from "../aiAgents/Ids.js"
import { AssistantId, LanguageTag } from "../assistants/Assistant.js"
import { FlowNodeId } from "../assistants/FlowIds.js"
import { Variables } from "../assistants/Variable.js"
import { DeploymentId } from "../deployments/Deployment.js"
import { Actor } from "../identity/Actor.js"
import { WorkspaceId } from "../identity/Ids.js"
import { NullableDateTimeField } from "../ModelFields.js"
import { Revision } from "../Revision.js"

/** A runtime session (the seed's `/runtime/sessions/{id}`). */
export const RuntimeSessionId = Schema.UUID.pipe(Schema.brand("RuntimeSessionId"))
export type RuntimeSessionId = typeof RuntimeSessionId.Type

/** `active` takes turns; `ended` reached an end node; `handed-off` went to a human. Both of the latter are final. */
export const SessionStatus = Schema.Literal("active", "ended", "handed-off").annotations({
  identifier: "RuntimeSessionStatus"
})
export type SessionStatus = typeof SessionStatus.Type

/** Where a conversation stands: its status, the node it waits at and its variables. */
export const SessionState = Schema.Struct({
  status: SessionStatus,
  /** The node waiting for the next user message (a question or intent router); `null` once final. */
  nodeId: Schema.NullOr(FlowNodeId),
  /** Invalid answers given so far to the waiting question. */
  attempts: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
  variables: Variables
}).annotations({ identifier: "RuntimeSessionState" })
export type SessionState = typeof SessionState.Type

const serverSet = Model.FieldExcept("jsonCreate", "jsonUpdate")

/** A runtime session as stored. */
export class RuntimeSession extends Model.Class<RuntimeSession>("RuntimeSession")({
  id: Model.Generated(RuntimeSessionId),
  workspaceId: serverSet(WorkspaceId),
  agentId: serverSet(AssistantId),
  /** `draft` for editors' test sessions, `deployment` for public ones. */
  source: serverSet(Schema.Literal("draft", "deployment")),
  deploymentId: serverSet(Schema.NullOr(DeploymentId)),
  /** The draft revision the session runs (a deployment's snapshot revision, or the draft's at each turn). */
  revision: serverSet(Revision),
  locale: serverSet(LanguageTag),
  state: serverSet(SessionState),
  /** The number of the last turn (0: only the opening messages so far). */
  turn: serverSet(Schema.Number.pipe(Schema.int(), Schema.nonNegative())),
  /** Who started a draft session; `null` for public sessions. */
  startedBy: serverSet(Schema.NullOr(Actor)),
  /** The embedding site's id for its user, when it gave one. */
  endUserId: serverSet(Schema.NullOr(EndUserId)),
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate,
  endedAt: NullableDateTimeField
}) {}

/** No session with this id exists in the current workspace (or, for public routes, on the token's deployment). */
export class RuntimeSessionNotFound extends Schema.TaggedError<RuntimeSessionNotFound>()(
  "RuntimeSessionNotFound",
  { sessionId: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}

/** The session is over (ended or handed off) and takes no more turns. */
export class RuntimeSessionEnded extends Schema.TaggedError<RuntimeSessionEnded>()(
  "RuntimeSessionEnded",
  { sessionId: Schema.String, status: SessionStatus, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}

/**
 * A turn failed on every attempt (its processing died or overran its time limit that many times), so
 * Parley stopped trying: the session is unchanged and takes other messages; this key keeps this answer.
 */
export class TurnFailed extends Schema.TaggedError<TurnFailed>()(
  "TurnFailed",
  { sessionId: Schema.String, idempotencyKey: Schema.String, attempts: Schema.Number, message: Schema.String },
  HttpApiSchema.annotations({ status: 422 })
) {}
