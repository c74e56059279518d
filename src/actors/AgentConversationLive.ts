/**
 * The behaviour of the `AgentConversation` entity. On activation it takes
 * ownership of its conversation (the next owner epoch, as `RuntimeSession`);
 * each turn then
 *
 * 1. answers from storage when its idempotency key was used already: the
 *    stored outcome (or stored failure) for the same body,
 *    `IdempotencyKeyReused` for another; a turn stored as running (its owner
 *    died mid-way) is resumed;
 * 2. otherwise is accepted: a turn row, status running, with its request,
 *    the snapshot it runs (the draft now, or the version) and its limits;
 * 3. runs the loop (`AgentRuntime.run`) from the turn's stored steps, storing
 *    each step as it completes, fenced and at most once per index;
 * 4. ends in one fenced transaction: the outcome, the transcript messages and
 *    the conversation's counters and status.
 *
 * A write that finds another owner (fenced out) kills the turn as a defect:
 * the entity restarts, claims the conversation again and resumes from the
 * stored steps, so a model call or a tool call with a stored step is never
 * made again. Each run of a turn counts an attempt first; a turn that has
 * used `PARLEY_TURN_ATTEMPTS` of them (it took its node down, or died, that
 * often) is stored as failed (`AgentTurnFailed`) and the conversation takes
 * its next turn. A model provider that fails ends the turn as failed with
 * `AgentTurnUpstreamFailed`, stored likewise.
 */
import type { Prompt } from "@effect/ai"
import { Entity } from "@effect/cluster"
import { Data, Effect, Option, Schema } from "effect"
import { v7 as uuidv7 } from "uuid"
import { TurnLimits } from "../config/Settings.js"
import { systemPrompt } from "../domain/aiAgents/AgentPrompt.js"
import {
  AgentTurnFailed,
  AgentTurnOutcome,
  type AgentTurnUpstreamFailed,
  finishReasonOf,
  StoredTurnFailure
} from "../domain/aiAgents/AgentTurnOutcome.js"
import { AgentTurnRequest, inputOf } from "../domain/aiAgents/AgentTurnRequest.js"
import type { AiAgentSnapshot } from "../domain/aiAgents/AiAgentSnapshot.js"
import { AiAgentConversationClosed, AiAgentConversationNotFound } from "../domain/aiAgents/Conversation.js"
import { AiAgentConversationId, AiAgentMessageId } from "../domain/aiAgents/Ids.js"
import { guardrailFinish } from "../domain/aiAgents/loop/AgentLoop.js"
import { LoopStep } from "../domain/aiAgents/loop/LoopStep.js"
import { toolIdempotencyKey } from "../domain/aiAgents/loop/ToolIdempotencyKey.js"
import { storable } from "../domain/aiAgents/StorableJson.js"
import { pieces } from "../domain/aiAgents/TurnDelta.js"
import { turnGuardrailEvents, turnToolCalls, turnUsage } from "../domain/aiAgents/TurnSummary.js"
import { excerpt } from "../domain/Excerpt.js"
import { IdempotencyKeyReused } from "../domain/Idempotency.js"
import type { JsonValue } from "../domain/Json.js"
import {
  AgentConversationRepo,
  type ConversationRow,
  type HistoryRow,
  type MessageWrite
} from "../persistence/aiAgents/AgentConversationRepo.js"
import { AiAgentRepo } from "../persistence/aiAgents/AiAgentRepo.js"
import { AgentMemory } from "../services/aiAgents/AgentMemory.js"
import { AgentRuntime } from "../services/aiAgents/AgentRuntime.js"
import { AgentSnapshots } from "../services/aiAgents/AgentSnapshots.js"
import { TurnDeltas } from "../services/aiAgents/TurnDeltas.js"
import { AgentOps } from "../services/settings/AgentOps.js"
import { AgentConversation, type AgentTurnPayload } from "./AgentConversation.js"

/** Another activation owns the conversation now; this one must stop writing. */
class FencedOut extends Data.TaggedError("FencedOut")<{ readonly conversationId: string; readonly epoch: number }> {
  override get message() {
    return `Conversation ${this.conversationId} has a newer owner than epoch ${this.epoch}; taking it over again`
  }
}

const decodeStep = Schema.decodeUnknown(LoopStep)
const encodeStep = Schema.encode(LoopStep)
const decodeRequest = Schema.decodeUnknown(AgentTurnRequest)
const encodeRequest = Schema.encode(AgentTurnRequest)
const decodeOutcome = Schema.decodeUnknown(AgentTurnOutcome)
const encodeOutcome = Schema.encode(AgentTurnOutcome)
const decodeFailure = Schema.decodeUnknown(StoredTurnFailure)
const encodeFailure = Schema.encode(StoredTurnFailure)

/** How much of the prompt remembered facts may take, in tokens (ceil(characters / 4)). */
const MEMORY_TOKENS = 500

/** The handoff's words to the user when the model said nothing. */
const DEFAULT_HANDOFF_TEXT = "I am handing this conversation to a human colleague, who will answer here."

/** Earlier messages as the model reads them; a stored tool message carries its call and its result. */
export const historyPrompt = (rows: ReadonlyArray<HistoryRow>): Array<Prompt.MessageEncoded> =>
  rows.flatMap((row): Array<Prompt.MessageEncoded> => {
    if (row.role === "user") return [{ role: "user", content: row.content }]
    if (row.role === "assistant") return row.content === "" ? [] : [{ role: "assistant", content: row.content }]
    const call = row.toolCall as
      | { id?: unknown; name?: unknown; arguments?: unknown; status?: unknown; result?: unknown; error?: unknown }
      | null
    if (call === null || typeof call.id !== "string" || typeof call.name !== "string") return []
    const failed = call.status !== "succeeded"
    return [
      {
        role: "assistant",
        content: [{
          type: "tool-call",
          id: call.id,
          name: call.name,
          params: call.arguments ?? {},
          providerExecuted: false
        }]
      },
      {
        role: "tool",
        content: [{
          type: "tool-result",
          id: call.id,
          name: call.name,
          isFailure: failed,
          result: failed ? { status: call.status, error: call.error } : call.result,
          providerExecuted: false
        }]
      }
    ]
  })

export const AgentConversationLive = AgentConversation.toLayer(
  Effect.gen(function*() {
    const repo = yield* AgentConversationRepo
    const agents = yield* AiAgentRepo
    const snapshots = yield* AgentSnapshots
    const runtime = yield* AgentRuntime
    const deltas = yield* TurnDeltas
    const memory = yield* AgentMemory
    const agentOps = yield* AgentOps
    const limits = yield* TurnLimits.pipe(Effect.orDie)
    const address = yield* Entity.CurrentAddress
    const runner = yield* Entity.CurrentRunnerAddress
    const runnerName = `${runner.host}:${runner.port}`
    const conversationId = AiAgentConversationId.make(address.entityId)

    const claimed = yield* repo.claim(conversationId, runnerName)
    const epoch = Option.match(claimed, { onNone: () => null, onSome: (row) => row.ownerEpoch })
    if (epoch !== null) {
      yield* Effect.logDebug("Agent conversation activated").pipe(
        Effect.annotateLogs({ conversationId, epoch, runner: runnerName })
      )
    }

    const fencedOut = (at: number) => Effect.die(new FencedOut({ conversationId, epoch: at }))

    const notFound = () =>
      new AiAgentConversationNotFound({ conversationId, message: `No conversation ${conversationId} for this agent` })

    /** The request a new turn runs: the snapshot, and the limits from the workspace's agent-ops settings. */
    const requestFor = (payload: AgentTurnPayload, conversation: ConversationRow) =>
      Effect.gen(function*() {
        let snapshot: AiAgentSnapshot
        let revision: AgentTurnRequest["revision"] = null
        if (payload.source.kind === "draft") {
          const agent = yield* agents.findById(payload.workspaceId, payload.agentId)
          if (Option.isNone(agent)) return yield* notFound()
          const draft = yield* snapshots.forTurn(agent.value)
          snapshot = draft.snapshot
          revision = draft.revision
        } else {
          const stored = yield* snapshots.version(payload.workspaceId, payload.agentId, payload.source.number)
          if (Option.isNone(stored)) return yield* notFound()
          snapshot = stored.value
        }
        const ops = yield* agentOps.get(payload.workspaceId)
        const budget = ops.tokenBudgets.perConversation
        // The input guardrails judge the message once, here (the model too, for llm topic rules); the turn stores
        // it as they left it, with their verdict, so a resumed turn never judges again.
        const input = yield* runtime.judgeInput(payload.workspaceId, snapshot, payload.message)
        return {
          source: payload.source,
          message: input.text,
          input: { redacted: input.redacted, events: input.events, stop: input.stop },
          variables: payload.variables,
          metadata: payload.metadata,
          endUserId: payload.endUserId,
          snapshot,
          revision,
          limits: {
            maxModelSteps: snapshot.modelSettings.maxSteps,
            tokenBudget: {
              remaining: budget === null ? null : budget - conversation.inputTokens - conversation.outputTokens,
              onExceeded: ops.tokenBudgets.onExceeded
            }
          },
          handoffTarget: ops.handoff.kind === "none" ? null : ops.handoff.kind
        } satisfies AgentTurnRequest
      })

    /** Store a failure as the turn's result and answer it. */
    const failWith = (turn: number, at: number, failure: AgentTurnFailed | AgentTurnUpstreamFailed) =>
      Effect.gen(function*() {
        const encoded = yield* Effect.orDie(encodeFailure(failure))
        if (!(yield* repo.failTurn(conversationId, turn, at, storable(encoded) as JsonValue))) {
          return yield* fencedOut(at)
        }
        return yield* failure
      })

    /** Pieces of the reply of `payload`'s turn, run under epoch `at`, published in order with their offsets. */
    const publishDelta = (payload: AgentTurnPayload, at: number) => {
      let seq = 0
      const written = new Map<number, number>()
      return (step: number, text: string) => {
        const offset = written.get(step) ?? 0
        written.set(step, offset + text.length)
        const first = seq
        seq += pieces(text).length
        return deltas.publish(
          { conversationId, idempotencyKey: payload.idempotencyKey, epoch: at, step },
          first,
          offset,
          text
        )
      }
    }

    /**
     * Steps 3 and 4: run (or resume) the turn from its stored steps, then end
     * it. A turn just accepted (`resumed` false) has its first attempt counted
     * by `startTurn` and no stored steps yet.
     */
    const run = (
      payload: AgentTurnPayload,
      conversation: ConversationRow,
      turn: number,
      request: AgentTurnRequest,
      resumed: boolean
    ) =>
      Effect.gen(function*() {
        const at = conversation.ownerEpoch
        const attempts = resumed ? yield* repo.countAttempt(conversationId, turn, at) : Option.some(1)
        if (Option.isNone(attempts)) return yield* fencedOut(at)
        if (attempts.value > limits.attempts) {
          yield* Effect.logError("An agent turn failed on every attempt; recorded as failed").pipe(
            Effect.annotateLogs({ conversationId, turn, attempts: attempts.value })
          )
          return yield* failWith(
            turn,
            at,
            new AgentTurnFailed({
              conversationId,
              attempts: attempts.value - 1,
              message: `This message could not be processed (${attempts.value - 1} failed attempts) and will not ` +
                "be tried again; the conversation takes other messages"
            })
          )
        }
        const started = Date.now()
        // The input guardrails' verdict, stored with the turn when it was accepted.
        const input = inputOf(request)
        const stored = resumed
          ? yield* Effect.forEach(yield* repo.steps(conversationId, turn), (row) => Effect.orDie(decodeStep(row.data)))
          : []
        const prepared = yield* runtime.prepare(payload.workspaceId, payload.agentId, request.snapshot)
        // Messages are written when a turn ends, so a conversation without a finished turn has no history.
        const history = conversation.turns === 0
          ? []
          : yield* repo.history(conversationId, request.snapshot.conversation.historyWindow)
        // The facts the agent remembers that bear on this message (agent facts, and the end user's).
        const facts = yield* memory.forPrompt(payload.agentId, request.endUserId, request.message, MEMORY_TOKENS)
        const remembered = facts.map((fact) => fact.key === null ? fact.content : `${fact.key}: ${fact.content}`)
        const base: Array<Prompt.MessageEncoded> = [
          {
            role: "system",
            content: systemPrompt(request.snapshot, request.variables, request.metadata, remembered)
          },
          ...historyPrompt(history),
          { role: "user", content: input.text }
        ]
        // A message an input guardrail stopped never reaches the model.
        const outcome = input.stop !== null ? { finish: guardrailFinish(input.stop), steps: [] } : yield* runtime.run({
          prepared,
          limits: request.limits,
          base,
          steps: stored,
          conversation: { conversationId, endUserId: request.endUserId },
          // A streaming request's reply text goes to whichever node holds the stream, as it is written.
          ...(payload.stream ? { onDelta: publishDelta(payload, at) } : {}),
          keyOf: (call) => toolIdempotencyKey({ conversationId, turn, step: call.index, callId: call.callId }),
          record: (step) =>
            Effect.gen(function*() {
              const data = yield* Effect.orDie(encodeStep(step))
              const written = yield* repo.insertStep({
                conversationId,
                turn,
                step: step.index,
                kind: step._tag === "ModelStep" ? "model" : "tool",
                data: data as JsonValue,
                epoch: at
              })
              if (!written) return yield* fencedOut(at)
            })
        })
        const { finish, steps } = outcome
        const toolIdOf = (name: string) => {
          const tool = prepared.tools.get(name)
          return tool === undefined || tool.kind === "builtin" ? null : tool.toolId
        }
        const toolCalls = turnToolCalls(steps, toolIdOf)
        const usage = turnUsage(steps)
        const lastModel = steps.filter((step) => step._tag === "ModelStep").at(-1)
        const byGuardrail = input.stop !== null || lastModel?.stopped !== undefined
        const handoff = finish.handoff === null
          ? null
          : {
            reason: finish.handoff.reason,
            triggeredBy: byGuardrail ? "guardrail" as const : "agent" as const,
            target: request.handoffTarget
          }
        const text = finish.text === "" && handoff !== null
          ? request.snapshot.conversation.handoffMessage ?? DEFAULT_HANDOFF_TEXT
          : finish.text
        const replyEvents = lastModel?.guardrailEvents ?? []
        const result: AgentTurnOutcome = storable({
          conversationId,
          turn,
          message: { id: AiAgentMessageId.make(uuidv7()), content: text },
          toolCalls,
          guardrailEvents: [...input.events, ...turnGuardrailEvents(steps)],
          loopFinish: finish.reason,
          finishReason: finishReasonOf(finish.reason),
          handoff,
          usage,
          latencyMs: Math.max(0, Date.now() - started),
          model: { ...prepared.resolved, model: lastModel?.model ?? prepared.resolved.model },
          revision: request.revision,
          version: request.source.kind === "version" ? request.source.number : null,
          traceId: payload.traceId
        })
        const version = result.version
        const messages: Array<MessageWrite> = [
          {
            id: uuidv7(),
            role: "user",
            content: input.text,
            redacted: input.redacted,
            guardrailEvents: input.events,
            toolCall: null,
            usage: null,
            latencyMs: null,
            model: null,
            version,
            finishReason: null,
            handoff: null,
            traceId: payload.traceId
          },
          ...toolCalls.map((call): MessageWrite => ({
            id: uuidv7(),
            role: "tool",
            content: excerpt(
              call.status === "succeeded" ? JSON.stringify(call.result) : call.error ?? "The tool failed.",
              16_000
            ),
            redacted: false,
            guardrailEvents: steps.find((step) => step._tag === "ToolStep" && step.callId === call.id)
              ?.guardrailEvents ?? [],
            toolCall: call as unknown as JsonValue,
            usage: null,
            latencyMs: call.durationMs,
            model: null,
            version,
            finishReason: null,
            handoff: null,
            traceId: payload.traceId
          })),
          {
            id: result.message.id,
            role: "assistant",
            content: text,
            redacted: replyEvents.some((event) => event.action === "redact"),
            guardrailEvents: steps.flatMap((step) => step._tag === "ModelStep" ? step.guardrailEvents ?? [] : []),
            toolCall: null,
            usage: usage as unknown as JsonValue,
            latencyMs: result.latencyMs,
            model: result.model as unknown as JsonValue,
            version,
            finishReason: result.finishReason,
            handoff: handoff as unknown as JsonValue,
            traceId: payload.traceId
          }
        ]
        const status = handoff !== null
          ? "handed-off" as const
          : finish.reason === "token-budget"
          ? "ended" as const
          : "active" as const
        const committed = yield* repo.finishTurn({
          conversationId,
          turn,
          epoch: at,
          result: (yield* Effect.orDie(encodeOutcome(result))) as unknown as JsonValue,
          workspaceId: payload.workspaceId,
          messages: storable(messages),
          inputTokens: usage.inputTokens,
          outputTokens: usage.outputTokens,
          costUsd: usage.costUsd,
          status,
          title: excerpt(storable(input.text).replace(/\s+/g, " "), 120)
        })
        if (!committed) return yield* fencedOut(at)
        return result
      }).pipe(
        Effect.catchTag("AgentTurnUpstreamFailed", (failure) => failWith(turn, conversation.ownerEpoch, failure))
      )

    return AgentConversation.of({
      Turn: Effect.fnUntraced(function*({ payload }) {
        if (epoch === null) return yield* notFound()
        const current = yield* repo.currentWithTurn(conversationId, payload.idempotencyKey)
        if (Option.isNone(current)) return yield* notFound()
        const { conversation, prior } = current.value
        if (conversation.ownerEpoch !== epoch) return yield* fencedOut(epoch)
        if (conversation.workspaceId !== payload.workspaceId || conversation.agentId !== payload.agentId) {
          return yield* notFound()
        }
        if (Option.isSome(prior)) {
          const stored = prior.value
          if (stored.bodyHash !== payload.bodyHash) {
            return yield* new IdempotencyKeyReused({
              idempotencyKey: payload.idempotencyKey,
              message: "This Idempotency-Key was already used in this conversation with a different body"
            })
          }
          if (stored.status === "done") return yield* Effect.orDie(decodeOutcome(stored.result))
          if (stored.status === "failed") return yield* Effect.flip(Effect.orDie(decodeFailure(stored.result)))
          // Running: its owner stopped mid-way; resume it from its stored steps.
          const request = yield* Effect.orDie(decodeRequest(stored.request))
          return yield* run(payload, conversation, stored.turn, request, true)
        }
        if (conversation.status !== "active") {
          return yield* new AiAgentConversationClosed({
            conversationId,
            status: conversation.status,
            message: `The conversation is ${conversation.status} and takes no more turns`
          })
        }
        const request = yield* requestFor(payload, conversation)
        const encoded = yield* Effect.orDie(encodeRequest(request))
        const turn = yield* repo.startTurn({
          conversationId,
          epoch,
          idempotencyKey: payload.idempotencyKey,
          bodyHash: payload.bodyHash,
          request: storable(encoded) as unknown as JsonValue,
          traceId: payload.traceId
        })
        if (Option.isNone(turn)) return yield* fencedOut(epoch)
        return yield* run(payload, conversation, turn.value, request, false)
      })
    })
  })
)
