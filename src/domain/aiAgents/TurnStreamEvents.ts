/**
 * The `text/event-stream` form of a turn, as pure functions: the events a
 * stored step stands for, one server-sent event's frame, and the events'
 * ids. A model step's text is `message.delta` events, then its tool calls
 * are `tool.call` events (in the model's order); a tool step is a
 * `tool.result`; tool events only on the playground (public streams show no
 * tools). `message.done` ends a turn's stream with its result.
 *
 * Every event but `error` has an id that says how far the client has got,
 * the same however often the turn is streamed: `g{n}` for the `n`th
 * guardrail event on the user's message (they come first), `m{step}.{end}`
 * for text (the step's text up to `end` seen), `s{step}.{n}` for the `n`th
 * tool or guardrail event of a step (its guardrail events follow its tool
 * events), `done` for `message.done`. A client that lost its stream sends the
 * last id it read as `Last-Event-ID` with the same request and key, and the
 * new stream leaves out what it saw (`resumeAt`).
 */
import { Schema } from "effect"
import { IdempotencyHeaders } from "../Idempotency.js"
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

/**
 * One server-sent event: its `id:` line when it has one, its `event:` line
 * the type, its `data:` line the JSON (one line: JSON escapes newlines).
 */
export const sseFrame = (type: string, data: unknown, id?: string): string =>
  `${id === undefined ? "" : `id: ${id}\n`}event: ${type}\ndata: ${JSON.stringify(data)}\n\n`

/** The id of a text event: step `step`'s text seen up to `end`. */
export const textEventId = (step: number, end: number) => `m${step}.${end}`

/** The id of the `n`th tool event of step `step`. */
export const toolEventId = (step: number, n: number) => `s${step}.${n}`

/** The id of the `n`th guardrail event on the user's message. */
export const inputEventId = (n: number) => `g${n}`

/** The id of `message.done`. */
export const DONE_EVENT_ID = "done"

/** How far a client that sent `Last-Event-ID` has got. */
export interface ResumePoint {
  /** The step whose text it saw, and how much of it (Infinity: all). */
  readonly textStep: number
  readonly textShown: number
  /** Whether it saw the `n`th tool event of step `step`. */
  readonly sawToolEvent: (step: number, n: number) => boolean
  /** Whether it saw the `n`th guardrail event on the user's message. */
  readonly sawInputEvent: (n: number) => boolean
}

/** The largest step or offset an id may name (the ids this server writes stay far below it). */
const MAX_POSITION = 1_000_000_000

/**
 * Where a stream resumes for `Last-Event-ID: lastEventId`; none for an id
 * this server did not write (the stream then starts from the beginning).
 */
export const resumeAt = (lastEventId: string | undefined): ResumePoint | undefined => {
  if (lastEventId === undefined) return undefined
  const id = lastEventId.trim()
  if (id === DONE_EVENT_ID) {
    return { textStep: MAX_POSITION, textShown: Infinity, sawToolEvent: () => true, sawInputEvent: () => true }
  }
  const input = /^g(\d{1,10})$/.exec(id)
  if (input !== null) {
    const last = Number(input[1])
    return { textStep: 0, textShown: 0, sawToolEvent: () => false, sawInputEvent: (n) => n <= last }
  }
  const match = /^([ms])(\d{1,10})\.(\d{1,10})$/.exec(id)
  if (match === null) return undefined
  const step = Number(match[2])
  const at = Number(match[3])
  if (step > MAX_POSITION || at > MAX_POSITION) return undefined
  return match[1] === "m"
    // The text of `step` up to `at`: the tool events of earlier steps, none of its own (they follow its text).
    ? { textStep: step, textShown: at, sawToolEvent: (s) => s < step, sawInputEvent: () => true }
    // A tool event of `step`: all text up to that step, and its tool events up to `at`.
    : {
      textStep: step,
      textShown: Infinity,
      sawToolEvent: (s, n) => s < step || (s === step && n <= at),
      sawInputEvent: () => true
    }
}

/** A comment line that keeps idle proxies from closing the stream. */
export const SSE_HEARTBEAT = ": keep-alive\n\n"

/** The headers of a conversation turn: its key, and with `?stream=true` the last event a lost stream showed. */
export const AgentTurnHeaders = Schema.Struct({
  ...IdempotencyHeaders.fields,
  "last-event-id": Schema.optional(
    Schema.String.pipe(Schema.maxLength(64)).annotations({
      description: "With ?stream=true and the same Idempotency-Key: the id of the last event a lost stream showed; " +
        "the new stream leaves out what it showed (an id this server did not write is ignored)"
    })
  )
})
