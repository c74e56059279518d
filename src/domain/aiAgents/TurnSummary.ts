/**
 * A finished turn's steps summed up as the API shows them: its tool calls
 * (in step order) and its token usage.
 */
import type { TokenUsage, TurnGuardrailEvent, TurnToolCall } from "./AgentTurn.js"
import type { LoopStep, ModelStep, ToolStep } from "./loop/LoopStep.js"

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/

/** A name as the model sent it, made a valid tool name for the API (a model may invent any name). */
export const shownName = (name: string): string => {
  if (TOOL_NAME.test(name)) return name
  const cleaned = name.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64)
  return cleaned === "" ? "unknown" : cleaned
}

/** The tool calls the turn ran, with their arguments and outcomes; `toolIdOf` names the agent tool of a call. */
export const turnToolCalls = (
  steps: ReadonlyArray<LoopStep>,
  toolIdOf: (name: string) => string | null
): Array<TurnToolCall> => {
  const calls = new Map(
    steps.flatMap((step) => step._tag === "ModelStep" ? step.toolCalls.map((call) => [call.id, call] as const) : [])
  )
  return steps
    .filter((step): step is ToolStep => step._tag === "ToolStep")
    .sort((a, b) => a.index - b.index)
    .map((step): TurnToolCall => ({
      id: step.callId,
      name: shownName(step.name),
      toolId: toolIdOf(step.name) as TurnToolCall["toolId"],
      arguments: calls.get(step.callId)?.arguments ?? null,
      status: step.status === "timed-out" ? "failed" : step.status,
      result: step.result,
      error: step.error,
      durationMs: step.durationMs
    }))
}

/** The guardrail hits of the turn's steps (its reply, its tool calls and their results), in step order. */
export const turnGuardrailEvents = (steps: ReadonlyArray<LoopStep>): Array<TurnGuardrailEvent> =>
  [...steps].sort((a, b) => a.index - b.index).flatMap((step) => step.guardrailEvents ?? [])

/** The tokens of the turn's model steps; the cost is unknown (no price list yet). */
export const turnUsage = (steps: ReadonlyArray<LoopStep>): TokenUsage =>
  steps
    .filter((step): step is ModelStep => step._tag === "ModelStep")
    .reduce(
      (sum, step) => ({
        inputTokens: sum.inputTokens + step.usage.inputTokens,
        outputTokens: sum.outputTokens + step.usage.outputTokens,
        costUsd: null
      }),
      { inputTokens: 0, outputTokens: 0, costUsd: null } as TokenUsage
    )
