import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../identity/Ids.js"
import { NullableDateTimeField } from "../ModelFields.js"
import { ListParams } from "../Pagination.js"
import { Revision } from "../Revision.js"
import { FinishReason, TokenUsage, TurnGuardrailEvent, TurnToolCall } from "./AgentTurn.js"
import { EvalScore } from "./AiAgentVersion.js"
import { EvalExpectationKind } from "./EvalExpectation.js"
import { AiAgentEvalId, AiAgentEvalRunId, AiAgentId, AiAgentVersionNumber } from "./Ids.js"
import { ResolvedModel } from "./ModelSettings.js"

/** Where a run stands: waiting, running, or finished as passed, failed, or unable to finish (`error`). */
export const EvalRunStatus = Schema.Literal("queued", "running", "passed", "failed", "error").annotations({
  identifier: "EvalRunStatus"
})
export type EvalRunStatus = typeof EvalRunStatus.Type

/** What started a run: a client (`POST /evals/{eid}/run`, `/evals/run`) or the publish gate (on a candidate). */
export const EvalRunTrigger = Schema.Literal("manual", "publish-gate").annotations({ identifier: "EvalRunTrigger" })
export type EvalRunTrigger = typeof EvalRunTrigger.Type

/** How one expectation of a case fared, by its index in the case's `expectations`. */
export const EvalExpectationResult = Schema.Struct({
  index: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
  kind: EvalExpectationKind,
  passed: Schema.Boolean,
  score: EvalScore,
  /** Why, in a sentence: what was found or missing, the regex's first match, the judge's reasoning. */
  reason: Schema.String.pipe(Schema.maxLength(2000))
}).annotations({ identifier: "EvalExpectationResult" })
export type EvalExpectationResult = typeof EvalExpectationResult.Type

/**
 * How one case fared: its status and score, the reply and the tool calls it
 * was judged on, and each expectation's outcome. `error` means the case could
 * not be judged (the model failed, a tool timed out); it scores 0.
 */
export const EvalCaseResult = Schema.Struct({
  evalId: AiAgentEvalId,
  /** The case's name and weight when it ran. */
  name: Schema.String,
  weight: Schema.Number,
  status: Schema.Literal("passed", "failed", "error"),
  score: EvalScore,
  /** The reply to the last user message, at most 16,000 characters; null when none was produced. */
  reply: Schema.NullOr(Schema.String.pipe(Schema.maxLength(16_000))),
  toolCalls: Schema.Array(TurnToolCall),
  guardrailEvents: Schema.Array(TurnGuardrailEvent),
  finishReason: Schema.NullOr(FinishReason),
  expectations: Schema.Array(EvalExpectationResult),
  usage: TokenUsage,
  latencyMs: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
  error: Schema.NullOr(Schema.String.pipe(Schema.maxLength(2000)))
}).annotations({ identifier: "EvalCaseResult" })
export type EvalCaseResult = typeof EvalCaseResult.Type

const Count = Schema.Number.pipe(Schema.int(), Schema.nonNegative())

/**
 * One run of eval cases against a published version or the draft: one case
 * (`POST /evals/{eid}/run`) or the whole enabled suite (`POST /evals/run`, the
 * publish gate).
 * Its score is the weighted mean of the cases' scores; it `passed` when every
 * case passed. Written only by the server, so it has no create or update body.
 */
export class AiAgentEvalRun extends Model.Class<AiAgentEvalRun>("AiAgentEvalRun")({
  id: Model.Generated(AiAgentEvalRunId),
  workspaceId: Model.FieldExcept("jsonCreate", "jsonUpdate")(WorkspaceId),
  agentId: Model.FieldExcept("jsonCreate", "jsonUpdate")(AiAgentId),
  /** The version run; null when the draft ran. */
  version: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.NullOr(AiAgentVersionNumber)),
  /** The draft revision run; null when a version ran. */
  draftRevision: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.NullOr(Revision)),
  trigger: Model.FieldExcept("jsonCreate", "jsonUpdate")(EvalRunTrigger),
  status: Model.FieldExcept("jsonCreate", "jsonUpdate")(EvalRunStatus),
  /** Null until the run finishes. */
  score: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.NullOr(EvalScore)),
  caseCount: Model.FieldExcept("jsonCreate", "jsonUpdate")(Count),
  passedCount: Model.FieldExcept("jsonCreate", "jsonUpdate")(Count),
  /** One entry per finished case, in the order they ran. */
  results: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.Array(EvalCaseResult).pipe(Schema.maxItems(1000))),
  /** The model that answered (and judged rubrics); null before the run starts. */
  model: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.NullOr(ResolvedModel)),
  /** Why the run could not finish (`error` status); null otherwise. */
  error: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.NullOr(Schema.String.pipe(Schema.maxLength(2000)))),
  /** The tokens of every case, the judge's included. */
  usage: Model.FieldExcept("jsonCreate", "jsonUpdate")(TokenUsage),
  /** Wall time of the whole run. */
  latencyMs: Model.FieldExcept("jsonCreate", "jsonUpdate")(Count),
  createdAt: Model.DateTimeInsertFromDate,
  startedAt: NullableDateTimeField,
  finishedAt: NullableDateTimeField
}) {}

/** The body of `POST /evals/{eid}/run` and `/evals/run`: a version to run, or none for the draft. No unknown fields. */
export const AiAgentEvalRunRequest = Schema.Struct({
  version: Schema.optional(AiAgentVersionNumber)
}).annotations({ identifier: "AiAgentEvalRunRequest", parseOptions: { onExcessProperty: "error" } })

/** The query of a version's eval runs: a page (newest first), optionally of one status or trigger. */
export const AiAgentEvalRunListParams = Schema.Struct({
  ...ListParams.fields,
  status: Schema.optional(EvalRunStatus),
  trigger: Schema.optional(EvalRunTrigger)
})
