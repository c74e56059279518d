/**
 * Graphs written shortly for the interpreter's tests (decoded through the
 * contract's schema, so defaults apply as they do for a saved draft), and
 * hooks that record what the interpreter asked of them.
 */
import { Effect, Schema } from "effect"
import type { JsonValue } from "../../../../../src/domain/Json.js"
import type { NodeResult } from "../../../../../src/domain/workflows/engine/NodeResult.js"
import {
  type CallContext,
  type CalloutFailure,
  executeDirectly,
  type PayloadRequest,
  type WaitResult,
  type WorkflowCallouts,
  type WorkflowHooks
} from "../../../../../src/domain/workflows/engine/WorkflowHooks.js"
import type { WorkflowRunFailed } from "../../../../../src/domain/workflows/engine/WorkflowRunFailed.js"
import type { NodeTrace } from "../../../../../src/domain/workflows/NodeTrace.js"
import { WorkflowGraph } from "../../../../../src/domain/workflows/WorkflowGraph.js"
import type { WorkflowNode } from "../../../../../src/domain/workflows/WorkflowNode.js"
import type { WorkflowOutput } from "../../../../../src/domain/workflows/WorkflowSimTurn.js"

/** A node as the editor saves it. */
export const node = (id: string, type: WorkflowNode["type"], data: object = {}) => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data
})

/** An edge; its id names its ends and handle. */
export const edge = (source: string, target: string, sourceHandle?: string) => ({
  id: `${source}-${sourceHandle ?? "next"}-${target}`.replace(/\./g, "_"),
  source,
  target,
  ...(sourceHandle === undefined ? {} : { sourceHandle })
})

/** A manual trigger `start` (with these inputs) followed by a chain of edges. */
export const trigger = (inputs: ReadonlyArray<object> = []) => node("start", "trigger", { kind: "manual", inputs })

/** A graph, checked by the contract's schema. */
export const graph = (nodes: ReadonlyArray<object>, edges: ReadonlyArray<object>): WorkflowGraph =>
  Schema.decodeUnknownSync(WorkflowGraph)({ nodes, edges })

/** Edges from each node to the next, in order. */
export const chain = (...ids: ReadonlyArray<string>) => ids.slice(1).map((id, index) => edge(ids[index]!, id))

type Callout = (call: any, context: CallContext) => Effect.Effect<JsonValue, CalloutFailure>

/** What the recording hooks saw. */
export interface Recording {
  /** The keys `execute` was asked for, in order. */
  readonly keys: Array<string>
  readonly emitted: Array<WorkflowOutput>
  readonly traces: Array<NodeTrace>
  /** The key of the execution each trace came from. */
  readonly traceKeys: Array<string>
  readonly waits: Array<{ readonly key: string; readonly request: PayloadRequest }>
  readonly sleeps: Array<{ readonly key: string; readonly seconds: number }>
}

const unexpected: Callout = (call) => Effect.dieMessage(`an unexpected call out: ${JSON.stringify(call)}`)

/**
 * Hooks that run every execution directly and record everything; calls out
 * die unless given, a wait dies unless `payload` answers it.
 */
export const recordingHooks = <E = never>(options: {
  readonly callouts?: Partial<Record<keyof WorkflowCallouts, Callout>>
  readonly payload?: (key: string, request: PayloadRequest) => Effect.Effect<WaitResult, E>
  readonly execute?: (
    key: string,
    node: WorkflowNode,
    execution: Effect.Effect<NodeResult, WorkflowRunFailed>
  ) => Effect.Effect<NodeResult, WorkflowRunFailed | E>
} = {}): { readonly hooks: WorkflowHooks<E>; readonly recording: Recording } => {
  const recording: Recording = { keys: [], emitted: [], traces: [], traceKeys: [], waits: [], sleeps: [] }
  const hooks: WorkflowHooks<E> = {
    callouts: {
      llm: options.callouts?.llm ?? unexpected,
      agent: options.callouts?.agent ?? unexpected,
      http: options.callouts?.http ?? unexpected
    },
    execute: (key, node, execution) =>
      Effect.suspend(() => {
        recording.keys.push(key)
        return (options.execute ?? executeDirectly)(key, node, execution)
      }),
    awaitPayload: (key, request) =>
      Effect.suspend(() => {
        recording.waits.push({ key, request })
        return options.payload === undefined
          ? Effect.dieMessage(`an unexpected wait at ${key}`)
          : options.payload(key, request)
      }),
    sleep: (key, seconds) => Effect.sync(() => void recording.sleeps.push({ key, seconds })),
    emit: (output) => Effect.sync(() => void recording.emitted.push(output)),
    trace: (trace, key) =>
      Effect.sync(() => {
        recording.traces.push(trace)
        recording.traceKeys.push(key)
      })
  }
  return { hooks, recording }
}

/** A payload received. */
export const received = (payload: JsonValue): WaitResult => ({ _tag: "Received", payload })

/** Answers waits from a list, in order. */
export const answers = (...results: ReadonlyArray<WaitResult>) => {
  let next = 0
  return () =>
    Effect.suspend(() => {
      const result = results[next++]
      return result === undefined ? Effect.dieMessage("no more answers") : Effect.succeed(result)
    })
}
