/**
 * The `text/event-stream` form of a turn, as pure functions: the events a
 * stored step stands for, and one server-sent event's frame. A model step's
 * tool calls are `tool.call` events (in the model's order), a tool step is a
 * `tool.result`; both only on the playground (public streams show no
 * tools). The reply itself is sent when the turn ends, as one
 * `message.delta` then `message.done` (the model call is not streamed yet,
 * so deltas come per turn, not per token).
 */
import type { AiAgentToolId } from "./Ids.js"
import type { LoopStep } from "./loop/LoopStep.js"
import { shownName } from "./TurnSummary.js"

/** A `tool.call` or `tool.result` event as the playground stream sends it. */
export type ToolStreamEvent =
  | {
    readonly type: "tool.call"
    readonly id: string
    readonly name: string
    readonly toolId: AiAgentToolId | null
    readonly arguments: unknown
  }
  | {
    readonly type: "tool.result"
    readonly id: string
    readonly name: string
    readonly status: "succeeded" | "failed" | "blocked"
    readonly result: unknown
    readonly error: string | null
    readonly durationMs: number
  }

/** The events of one stored step; `toolIdOf` names the agent tool of a call (null for a built-in). */
export const stepEvents = (
  step: LoopStep,
  toolIdOf: (name: string) => AiAgentToolId | null
): Array<ToolStreamEvent> =>
  step._tag === "ModelStep"
    ? step.toolCalls.map((call) => ({
      type: "tool.call" as const,
      id: call.id,
      name: shownName(call.name),
      toolId: toolIdOf(call.name),
      arguments: call.arguments
    }))
    : [{
      type: "tool.result" as const,
      id: step.callId,
      name: shownName(step.name),
      status: step.status === "timed-out" ? "failed" as const : step.status,
      result: step.result,
      error: step.error,
      durationMs: step.durationMs
    }]

/** One server-sent event: its `event:` line is the type, its `data:` line the JSON (one line: JSON escapes newlines). */
export const sseFrame = (type: string, data: unknown): string => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`

/** A comment line that keeps idle proxies from closing the stream. */
export const SSE_HEARTBEAT = ": keep-alive\n\n"
