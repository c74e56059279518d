import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { IdempotencyKey } from "../Idempotency.js"
import { Actor } from "../identity/Actor.js"
import { WorkspaceId } from "../identity/Ids.js"
import { JsonValue } from "../Json.js"
import { NullableDateTimeField } from "../ModelFields.js"
import { ListParams } from "../Pagination.js"
import { Revision } from "../Revision.js"
import { Slug } from "../Slug.js"
import { TraceId } from "../Trace.js"
import { ChainRunStep } from "./ChainRunStep.js"
import { ChainId, ChainRunId, WorkflowNodeId } from "./Ids.js"
import { RunFailure } from "./NodeTrace.js"
import { PendingWait } from "./PendingWait.js"
import { EventType } from "./TriggerData.js"

/**
 * Where a chain run stands (after Temporal's execution states): `queued`,
 * `running`, `paused` on a wait until `/resume`, then `succeeded`, `failed`
 * or `cancelled`, which are final.
 */
export const ChainRunStatus = Schema.Literal("queued", "running", "paused", "succeeded", "failed", "cancelled")
export type ChainRunStatus = typeof ChainRunStatus.Type

/** What started a run: a signed-in user's `run` (`manual`), an API token's `run` (`api`), or either ingress route. */
export const ChainRunTrigger = Schema.Literal("manual", "ingress", "api")
export type ChainRunTrigger = typeof ChainRunTrigger.Type

/** One run of a chain: a durable workflow on the cluster's engine, following the chain as it was at start. */
export class ChainRun extends Model.Class<ChainRun>("ChainRun")({
  id: Model.Generated(ChainRunId),
  workspaceId: Model.FieldExcept("jsonCreate", "jsonUpdate")(WorkspaceId),
  chainId: Model.FieldExcept("json", "jsonCreate", "jsonUpdate")(ChainId),
  chainSlug: Slug,
  /** The chain revision whose steps the run follows. */
  chainRevision: Revision,
  status: ChainRunStatus,
  trigger: ChainRunTrigger,
  /** The event type of an ingress run. */
  eventType: Schema.NullOr(EventType),
  /** The `webhook-id` of a public ingress delivery. */
  webhookId: Schema.NullOr(Schema.String),
  idempotencyKey: Model.FieldExcept("json", "jsonCreate", "jsonUpdate")(Schema.NullOr(IdempotencyKey)),
  /** The run's input (for ingress runs, the event: `{ type, data }` or the public payload). */
  input: JsonValue,
  /** The last step's output; null unless the run succeeded. */
  output: JsonValue,
  error: Schema.NullOr(RunFailure),
  /**
   * How many times the run was executed: 1, and one more each time a failed
   * run was resumed from its failed step (the steps that succeeded are kept).
   */
  generation: Schema.Number.pipe(Schema.int(), Schema.positive()),
  /** What `/resume` must supply; empty unless `paused`. */
  waitingFor: Schema.Array(PendingWait),
  /** Who started it (`run` or the authenticated `ingress`); null for public ingress. */
  startedBy: Schema.NullOr(Actor),
  /** The trace of the run's root span. */
  traceId: Schema.NullOr(TraceId),
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate,
  startedAt: NullableDateTimeField,
  finishedAt: NullableDateTimeField
}) {}

/** A run with its step log, in the order the attempts started. */
export const ChainRunDetail = Schema.Struct({
  ...ChainRun.json.fields,
  steps: Schema.Array(ChainRunStep.json)
}).annotations({ identifier: "ChainRunDetail" })

/** The body of `POST /workflow-chains/{slug}/run`: the run's input (`{}` when absent); unknown fields are refused. */
export const ChainRunRequest = Schema.Struct({
  input: Schema.optionalWith(JsonValue, { default: () => ({}) })
}).annotations({ identifier: "ChainRunRequest", parseOptions: { onExcessProperty: "error" } })

/**
 * The body of `/resume`: the payload for the paused wait (an `ApprovalDecision`,
 * an event's data, an input message). `nodeId` picks the wait when several are
 * pending; unknown fields are refused.
 */
export const ChainRunResume = Schema.Struct({
  payload: JsonValue,
  nodeId: Schema.optional(WorkflowNodeId)
}).annotations({ identifier: "ChainRunResume", parseOptions: { onExcessProperty: "error" } })

/** The query of `GET /workflow-chains/{slug}/runs`: a page, newest first, optionally by status and trigger. */
export const ChainRunListParams = Schema.Struct({
  ...ListParams.fields,
  status: Schema.optional(ChainRunStatus),
  trigger: Schema.optional(ChainRunTrigger)
})

/** No run with this id exists for the chain. */
export class ChainRunNotFound extends Schema.TaggedError<ChainRunNotFound>()(
  "ChainRunNotFound",
  { runId: ChainRunId, message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}

/** Only a `paused` run can be resumed. */
export class ChainRunNotPaused extends Schema.TaggedError<ChainRunNotPaused>()(
  "ChainRunNotPaused",
  { runId: ChainRunId, status: ChainRunStatus, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}

/** The run has already ended (succeeded, failed or cancelled) and cannot be cancelled. */
export class ChainRunFinished extends Schema.TaggedError<ChainRunFinished>()(
  "ChainRunFinished",
  { runId: ChainRunId, status: ChainRunStatus, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}
