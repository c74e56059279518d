/**
 * What a caller plugs into the workflow interpreter: how nodes call out
 * (models, agents, HTTP tools), how each node execution is run (directly, in
 * a journal, as a durable activity), how waits receive their payload, how
 * durations pass, and where outputs and traces go. The chain runs on
 * `@effect/workflow` (an `Activity` per execution named by its key, a
 * `DurableDeferred` per wait, `DurableClock.sleep` per duration); the
 * simulator journals executions and suspends at a wait until the next turn.
 */
import { Schema } from "effect"
import type { Effect } from "effect"
import { JsonValue } from "../../Json.js"
import type { Slug } from "../../Slug.js"
import type { WorkspaceToolId } from "../../workspace/Ids.js"
import type { WorkflowNodeId } from "../Ids.js"
import type { LlmData } from "../NodeData.js"
import type { NodeTrace } from "../NodeTrace.js"
import type { PendingWait } from "../PendingWait.js"
import type { WorkflowNode } from "../WorkflowNode.js"
import type { WorkflowOutput } from "../WorkflowSimTurn.js"
import type { NodeKey } from "./NodeKey.js"
import type { NodeResult } from "./NodeResult.js"
import type { WorkflowRunFailed } from "./WorkflowRunFailed.js"

/** One call of a node that calls out: which execution, and which attempt of it (from 1). */
export interface CallContext {
  readonly nodeId: WorkflowNodeId
  /** The execution's key: the same on every attempt and after a replay, so it serves as an idempotency key. */
  readonly key: NodeKey
  readonly attempt: number
}

/** An `llm` node's call, its templates rendered. */
export interface LlmCall {
  readonly model: (typeof LlmData.Type)["model"]
  readonly system: string | undefined
  readonly prompt: string
  readonly temperature: number | undefined
  readonly maxOutputTokens: number | undefined
  readonly outputSchema: (typeof LlmData.Type)["outputSchema"]
}

/** An `ai-agent` node's message, rendered, and its input mapping evaluated. */
export interface AgentCall {
  readonly agentSlug: typeof Slug.Type
  readonly message: string
  readonly context: { readonly [name: string]: JsonValue }
}

/** An `http` node's tool and its arguments, evaluated. */
export interface HttpCall {
  readonly toolId: WorkspaceToolId
  readonly arguments: { readonly [name: string]: JsonValue }
}

/** A call out failed; the node retries it up to its `maxAttempts`, then fails or routes by `error`. */
export class CalloutFailure extends Schema.TaggedError<CalloutFailure>()("CalloutFailure", {
  message: Schema.String
}) {}

/** The calls out that `llm`, `ai-agent` and `http` nodes make; each answers the node's output. */
export interface WorkflowCallouts<R = never> {
  readonly llm: (call: LlmCall, context: CallContext) => Effect.Effect<JsonValue, CalloutFailure, R>
  readonly agent: (call: AgentCall, context: CallContext) => Effect.Effect<JsonValue, CalloutFailure, R>
  readonly http: (call: HttpCall, context: CallContext) => Effect.Effect<JsonValue, CalloutFailure, R>
}

/** What a `wait` (approval, event) or `input` node waits for. */
export interface PayloadRequest {
  readonly node: WorkflowNode
  readonly wait: PendingWait
  /** Give up after this long (then the node leaves by `timeout`); absent: wait for ever. */
  readonly timeoutSeconds: number | undefined
}

/** How a wait ended: with a payload (a message, an `ApprovalDecision`, an event's data), or timed out. */
export const WaitResult = Schema.Union(
  Schema.TaggedStruct("Received", { payload: JsonValue }),
  Schema.TaggedStruct("TimedOut", {})
).annotations({ identifier: "WorkflowWaitResult" })
export type WaitResult = typeof WaitResult.Type

/**
 * The interpreter's hooks. `E` is what the caller's own hooks may fail with
 * (the simulator's "suspended until the next turn", for instance); `R` what
 * they need (the workflow engine and instance, the providers).
 */
export interface WorkflowHooks<E = never, R = never> {
  readonly callouts: WorkflowCallouts<R>
  /**
   * Runs one node execution. Every execution goes through here exactly once
   * per key, and the effect holds all of its work (expressions, calls,
   * emits, its trace), so a journal that answers a known key with the stored
   * result replays the run without doing any of it again.
   */
  readonly execute: (
    key: NodeKey,
    node: WorkflowNode,
    execution: Effect.Effect<NodeResult, WorkflowRunFailed, R>
  ) => Effect.Effect<NodeResult, WorkflowRunFailed | E, R>
  /** The payload that ends a wait or answers an input node, once per key. */
  readonly awaitPayload: (key: NodeKey, request: PayloadRequest) => Effect.Effect<WaitResult, E, R>
  /** Lets a duration pass (a durable clock in a chain; the simulator skips it). */
  readonly sleep: (key: NodeKey, seconds: number) => Effect.Effect<void, E, R>
  /** An output node's output or an input node's prompt, from inside its execution (`key`). */
  readonly emit: (output: WorkflowOutput, key: NodeKey) => Effect.Effect<void, never, R>
  /** One node execution (`key`) as it ended (or began waiting), from inside it. */
  readonly trace: (trace: NodeTrace, key: NodeKey) => Effect.Effect<void, never, R>
}

/** Runs every execution as it is: no journal (tests, one-shot runs). */
export const executeDirectly = <R>(
  _key: NodeKey,
  _node: WorkflowNode,
  execution: Effect.Effect<NodeResult, WorkflowRunFailed, R>
): Effect.Effect<NodeResult, WorkflowRunFailed, R> => execution
