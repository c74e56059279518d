/**
 * The decisions of one AI-agent turn, as a pure function of its recorded
 * steps: call the model, run the tools it asked for, or finish. A node that
 * takes over a turn mid-way (its owner died) calls `nextAction` on the stored
 * steps and gets the action the first node would have taken next; it never
 * lists a call that already has its tool step. The limits and built-ins must
 * be the ones the turn started with (the caller stores `LoopLimits` with the
 * turn), or a resumed turn may decide differently.
 *
 * The rules:
 * - A model step without tool calls ends the turn with its text: `length`
 *   and `content-filter` as the provider said, anything else (`stop`,
 *   `other`, a `tool-calls` finish with no calls) as `stop`.
 * - A `handoff` call (when `handoff` is among the built-ins; otherwise it is
 *   an ordinary, unknown tool) ends the turn with a handoff, its reason the
 *   `reason` argument or `DEFAULT_HANDOFF_REASON`. None of the other calls of
 *   that step run: their results would go to no model call, so any side
 *   effect (a booking, a refund) would happen without the user being told,
 *   while the human taking over sees in the transcript what the model asked
 *   for and can do it knowingly. The handoff wins over both limits: the model
 *   asked for a human, and the limits only stop it asking for more.
 * - Limits are checked at the two boundaries where a turn would begin
 *   something new: before a model call, and before the tools of a model
 *   step start. A step's tools, once begun (one of them has its tool step),
 *   are always all run: the turn never stops in the middle of a step.
 * - The token budget: the turn's model steps' input plus output tokens
 *   against `remaining` (what the conversation had left when the turn
 *   began; null: no budget). It is spent when the sum reaches `remaining`
 *   (a model call with nothing left could only exceed it), and then the turn
 *   finishes `token-budget`, or `handoff` with `BUDGET_HANDOFF_REASON` when
 *   `onExceeded` is "handoff". At the tools boundary too: tool results that
 *   no model call will read are side effects nobody reports (as for the
 *   step limit). The budget is checked before the step limit, as its end
 *   reaches past this turn (the conversation ends or goes to a human).
 * - The step limit counts model steps: with `maxModelSteps` of them made,
 *   the turn finishes `max-steps`, including when the last one still asks
 *   for tools (which then do not run).
 * - A turn that finishes on a limit or a handoff keeps the text of its last
 *   model step (empty when there is none).
 * - Steps that cannot have been recorded by these rules (see `LoopRounds.ts`;
 *   here also steps after a handoff) and a step limit under 1 are a
 *   `LoopCorrupt` value: the turn cannot go on from them, and nothing throws.
 */
import { Either, Schema } from "effect"
import { JsonValue } from "../../Json.js"
import { ToolCallId } from "../AgentTurn.js"
import { indexAfter, LoopCorrupt, type LoopRound, readRounds } from "./LoopRounds.js"
import { type LoopStep, type LoopToolCall, StepIndex, type ToolStepStatus } from "./LoopStep.js"

/** The name of the built-in tool that hands the conversation to a human. */
export const HANDOFF_TOOL = "handoff"

/** The handoff's reason when the model gave none. */
export const DEFAULT_HANDOFF_REASON = "The agent handed the conversation to a human."

/** What the user reads when a guardrail blocks and has no message of its own. */
export const DEFAULT_BLOCK_TEXT = "Sorry, I can't help with that."

/** The handoff's reason when a guardrail hands the conversation to a human. */
export const guardrailHandoffReason = (name: string) => `The guardrail "${name}" handed the conversation to a human.`

/** The handoff's reason when the token budget is spent and the workspace hands off. */
export const BUDGET_HANDOFF_REASON = "The conversation's token budget is spent."

/** The limits a turn runs under, stored with the turn so a resumed turn decides under the same ones. */
export const LoopLimits = Schema.Struct({
  maxModelSteps: Schema.Number.pipe(Schema.int(), Schema.greaterThanOrEqualTo(1)),
  tokenBudget: Schema.Struct({
    /** Tokens the conversation had left when the turn began (below 0 once overspent); null: no budget. */
    remaining: Schema.NullOr(Schema.Number.pipe(Schema.int())),
    onExceeded: Schema.Literal("end", "handoff")
  })
}).annotations({ identifier: "LoopLimits" })
export type LoopLimits = typeof LoopLimits.Type

/** Call the model with the transcript so far; its step gets `index`. */
export const CallModel = Schema.TaggedStruct("CallModel", { index: StepIndex }).annotations({
  identifier: "CallModel"
})

/** A call to run, with the index its tool step must be recorded at (also the `step` of its Idempotency-Key). */
export const PendingToolCall = Schema.Struct({
  index: StepIndex,
  callId: ToolCallId,
  name: Schema.String,
  arguments: JsonValue,
  /** One of the loop's own tools (`remember`), run in-process rather than as an agent tool. */
  builtIn: Schema.Boolean
}).annotations({ identifier: "PendingToolCall" })
export type PendingToolCall = typeof PendingToolCall.Type

/** Run these calls (independently, in parallel), recording each one's tool step when it ends. */
export const RunTools = Schema.TaggedStruct("RunTools", { calls: Schema.Array(PendingToolCall) }).annotations({
  identifier: "RunTools"
})

/** Why a turn ended. */
export const LoopFinishReason = Schema.Literal(
  "stop",
  "length",
  "max-steps",
  "token-budget",
  "handoff",
  "content-filter",
  "guardrail"
).annotations({ identifier: "LoopFinishReason" })
export type LoopFinishReason = typeof LoopFinishReason.Type

/** The turn is over: its reply text, and the handoff to do when it ended with one. */
export const Finish = Schema.TaggedStruct("Finish", {
  reason: LoopFinishReason,
  text: Schema.String,
  handoff: Schema.NullOr(Schema.Struct({ reason: Schema.String }))
}).annotations({ identifier: "Finish" })

/** What the turn does next. */
export const LoopAction = Schema.Union(CallModel, RunTools, Finish).annotations({ identifier: "LoopAction" })
export type LoopAction = typeof LoopAction.Type

/** What `nextAction` decides from. */
export interface LoopInput {
  readonly steps: ReadonlyArray<LoopStep>
  readonly limits: LoopLimits
  /** The names of the loop's own tools the agent has (`handoff`, `remember`). */
  readonly builtIns: ReadonlyArray<string>
}

const handoffReason = (call: LoopToolCall): string => {
  const args = call.arguments
  const reason = typeof args === "object" && args !== null && !Array.isArray(args)
    ? (args as { readonly [key: string]: JsonValue }).reason
    : undefined
  return typeof reason === "string" && reason.trim() !== "" ? reason.trim() : DEFAULT_HANDOFF_REASON
}

const finish = (reason: LoopFinishReason, text: string, handoff: string | null = null): LoopAction => ({
  _tag: "Finish",
  reason,
  text,
  handoff: handoff === null ? null : { reason: handoff }
})

/**
 * The finish of a turn a guardrail stopped (on the user's message, or on a
 * model step's text): `guardrail` with its message for a block, `handoff`
 * (its message, or the agent's handoff wording when it has none) for a handoff.
 */
export const guardrailFinish = (
  stopped: { readonly action: "block" | "handoff"; readonly name: string; readonly message: string | null }
): typeof Finish.Type =>
  (stopped.action === "block"
    ? finish("guardrail", stopped.message ?? DEFAULT_BLOCK_TEXT)
    : finish("handoff", stopped.message ?? "", guardrailHandoffReason(stopped.name))) as typeof Finish.Type

/** The finish a limit forces at a boundary, or null while the turn may go on. */
const limitReached = (rounds: ReadonlyArray<LoopRound>, limits: LoopLimits): LoopAction | null => {
  const text = rounds.at(-1)?.model.text ?? ""
  const { onExceeded, remaining } = limits.tokenBudget
  const used = rounds.reduce((sum, { model }) => sum + model.usage.inputTokens + model.usage.outputTokens, 0)
  if (remaining !== null && used >= remaining) {
    return onExceeded === "handoff" ? finish("handoff", text, BUDGET_HANDOFF_REASON) : finish("token-budget", text)
  }
  return rounds.length >= limits.maxModelSteps ? finish("max-steps", text) : null
}

const answered = (finishWord: LoopRound["model"]["finish"]): LoopFinishReason =>
  finishWord === "length" || finishWord === "content-filter" ? finishWord : "stop"

/** The next action of a turn from its recorded steps, or why the steps cannot be trusted. */
export const nextAction = ({ builtIns, limits, steps }: LoopInput): Either.Either<LoopAction, LoopCorrupt> => {
  if (!Number.isInteger(limits.maxModelSteps) || limits.maxModelSteps < 1) {
    return Either.left(
      new LoopCorrupt({ message: `maxModelSteps is ${limits.maxModelSteps}, not an integer of at least 1` })
    )
  }
  return Either.flatMap(readRounds(steps), (rounds) => {
    const isHandoff = (call: LoopToolCall) => call.name === HANDOFF_TOOL && builtIns.includes(HANDOFF_TOOL)
    const earlier = rounds.slice(0, -1).find((round) => round.model.toolCalls.some(isHandoff))
    if (earlier !== undefined) {
      return Either.left(new LoopCorrupt({ message: `steps follow the handoff of model step ${earlier.model.index}` }))
    }
    const last = rounds.at(-1)
    if (last === undefined) return Either.right(limitReached(rounds, limits) ?? { _tag: "CallModel", index: 0 })
    const { model, results } = last
    if (model.stopped !== undefined) return Either.right(guardrailFinish(model.stopped))
    if (model.toolCalls.length === 0) return Either.right(finish(answered(model.finish), model.text))
    const handoff = model.toolCalls.find(isHandoff)
    if (handoff !== undefined) return Either.right(finish("handoff", model.text, handoffReason(handoff)))
    const pending = model.toolCalls.flatMap((call, place): Array<PendingToolCall> =>
      results[place] === undefined
        ? [{
          index: model.index + place + 1,
          callId: call.id,
          name: call.name,
          arguments: call.arguments,
          builtIn: builtIns.includes(call.name)
        }]
        : []
    )
    if (pending.length === 0) {
      return Either.right(limitReached(rounds, limits) ?? { _tag: "CallModel", index: indexAfter(last) })
    }
    const begun = pending.length < model.toolCalls.length
    return Either.right((begun ? null : limitReached(rounds, limits)) ?? { _tag: "RunTools", calls: pending })
  })
}

/**
 * One message of the transcript a turn's steps add for the next model call,
 * provider-neutral (each provider's adapter writes it in its own form).
 * Derived from the steps every time, never stored.
 */
export type LoopMessage =
  | { readonly role: "assistant"; readonly text: string; readonly toolCalls: ReadonlyArray<LoopToolCall> }
  | {
    readonly role: "tool"
    readonly callId: string
    readonly name: string
    /** The tool did not succeed: the model reads `content` as a tool error, and the turn goes on. */
    readonly isFailure: boolean
    /** The tool's result; for a failure `{ status, error }`. */
    readonly content: JsonValue
  }

/** What the model reads when a tool step recorded no error message. */
export const DEFAULT_TOOL_ERRORS: Readonly<Record<Exclude<ToolStepStatus, "succeeded">, string>> = {
  failed: "The tool failed.",
  blocked: "A guardrail blocked this call.",
  "timed-out": "The tool did not answer in time."
}

/**
 * The turn's steps as messages: each model step's text and calls, then one
 * tool message per call in the order of the calls (not the order the tools
 * finished). A call without a tool step (the turn ended before it ran) has
 * no tool message.
 */
export const messagesFor = (steps: ReadonlyArray<LoopStep>): Either.Either<ReadonlyArray<LoopMessage>, LoopCorrupt> =>
  Either.map(readRounds(steps), (rounds) =>
    rounds.flatMap(({ model, results }): Array<LoopMessage> => [
      { role: "assistant", text: model.text, toolCalls: model.toolCalls },
      ...results.flatMap((step): Array<LoopMessage> =>
        step === undefined ? [] : [{
          role: "tool",
          callId: step.callId,
          name: step.name,
          isFailure: step.status !== "succeeded",
          content: step.status === "succeeded"
            ? step.result
            : { status: step.status, error: step.error ?? DEFAULT_TOOL_ERRORS[step.status] }
        }]
      )
    ]))
