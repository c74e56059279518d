import { Schema } from "effect"
import { JsonObject, JsonValue } from "../Json.js"
import { TraceId } from "../Trace.js"
import { WorkflowNodeId, WorkflowSimSessionId } from "./Ids.js"
import { NodeTrace, RunFailure } from "./NodeTrace.js"
import { PendingWait } from "./PendingWait.js"
import { WorkflowSimSession, WorkflowSimStatus } from "./WorkflowSimSession.js"

/** One output a turn produced: a text message (an output node's template, an input node's prompt) or a JSON value. */
export const WorkflowOutput = Schema.Union(
  Schema.Struct({ nodeId: WorkflowNodeId, format: Schema.Literal("text"), text: Schema.String }),
  Schema.Struct({ nodeId: WorkflowNodeId, format: Schema.Literal("json"), value: JsonValue })
).annotations({ identifier: "WorkflowOutput" })
export type WorkflowOutput = typeof WorkflowOutput.Type

/**
 * A simulator turn: a user message (`text`, for an input node) or a JSON
 * `payload` (an input node expecting JSON, an `ApprovalDecision`, an event's
 * data). Exactly one of the two; unknown fields are refused.
 */
export const WorkflowSimTurnRequest = Schema.Union(
  Schema.Struct({ text: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(4000)) }).annotations({}),
  Schema.Struct({ payload: JsonValue })
).annotations({ identifier: "WorkflowSimTurnRequest", parseOptions: { onExcessProperty: "error" } })
export type WorkflowSimTurnRequest = typeof WorkflowSimTurnRequest.Type

/** What one turn did: its outputs, the nodes it ran, where the session now stands, and the turn's trace id. */
export const WorkflowSimTurnResult = Schema.Struct({
  sessionId: WorkflowSimSessionId,
  /** 0 for the opening run at start, then 1, 2, ... per turn. */
  turn: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
  status: WorkflowSimStatus,
  outputs: Schema.Array(WorkflowOutput),
  trace: Schema.Array(NodeTrace),
  /** What the next turn must supply, when `status` is `waiting-input`. */
  waitingFor: Schema.NullOr(PendingWait),
  /** The session's variables after the turn, for the simulator's inspector. */
  variables: JsonObject,
  /** Why the session failed, when `status` is `failed`. */
  error: Schema.NullOr(RunFailure),
  traceId: TraceId
}).annotations({ identifier: "WorkflowSimTurnResult" })
export type WorkflowSimTurnResult = typeof WorkflowSimTurnResult.Type

/** The answer to a session start: the new session and its opening run (up to the first wait or the end). */
export const WorkflowSimSessionStarted = Schema.Struct({
  session: WorkflowSimSession.json,
  turn: WorkflowSimTurnResult
}).annotations({ identifier: "WorkflowSimSessionStarted" })
