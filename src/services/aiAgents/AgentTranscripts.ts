/**
 * A stateless run of a snapshot over a whole transcript: the earlier messages
 * are history, the last (the user's) is the turn, and nothing is stored. The
 * playground's transcript form and eval cases both run through here; an eval
 * case passes `mock` to answer named tools from the case instead of running
 * them. A model provider that fails ends the run with `AgentTurnUpstreamFailed`.
 */
import type { Prompt } from "@effect/ai"
import { Effect } from "effect"
import { v7 as uuidv7 } from "uuid"
import { systemPrompt } from "../../domain/aiAgents/AgentPrompt.js"
import type {
  FinishReason,
  TokenUsage,
  TurnGuardrailEvent,
  TurnHandoff,
  TurnToolCall
} from "../../domain/aiAgents/AgentTurn.js"
import { finishReasonOf } from "../../domain/aiAgents/AgentTurnOutcome.js"
import type { AiAgentSnapshot } from "../../domain/aiAgents/AiAgentSnapshot.js"
import { guardrailFinish } from "../../domain/aiAgents/loop/AgentLoop.js"
import { toolIdempotencyKey } from "../../domain/aiAgents/loop/ToolIdempotencyKey.js"
import type { ResolvedModel } from "../../domain/aiAgents/ModelSettings.js"
import type { PlaygroundMessage } from "../../domain/aiAgents/Playground.js"
import { turnGuardrailEvents, turnToolCalls, turnUsage } from "../../domain/aiAgents/TurnSummary.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { JsonValue } from "../../domain/Json.js"
import { AgentOps } from "../settings/AgentOps.js"
import { AgentRuntime } from "./AgentRuntime.js"

/** What a transcript run needs: the snapshot it runs and the messages, the last one the user's. */
export interface TranscriptInput {
  readonly workspaceId: WorkspaceId
  readonly agentId: string
  readonly snapshot: AiAgentSnapshot
  readonly messages: ReadonlyArray<typeof PlaygroundMessage.Type>
  readonly variables: Readonly<Record<string, string>>
  /** Tools answered without running them: the output the model receives, by tool name. */
  readonly mock?: (name: string) => JsonValue | undefined
}

/** What a transcript run did, as the playground and eval results show it. */
export interface TranscriptOutcome {
  readonly reply: string
  readonly toolCalls: ReadonlyArray<TurnToolCall>
  /** The guardrails that fired: on the turn's message (input rules), the reply and the tool calls. */
  readonly guardrailEvents: ReadonlyArray<TurnGuardrailEvent>
  readonly handoff: typeof TurnHandoff.Type | null
  readonly finishReason: typeof FinishReason.Type
  readonly usage: TokenUsage
  /** Wall time of the run, tools included. */
  readonly latencyMs: number
  readonly model: typeof ResolvedModel.Type
}

export class AgentTranscripts extends Effect.Service<AgentTranscripts>()(
  "parley/services/aiAgents/AgentTranscripts",
  {
    effect: Effect.gen(function*() {
      const runtime = yield* AgentRuntime
      const agentOps = yield* AgentOps

      /** Run the transcript's last user message against the snapshot, the earlier messages as history. */
      const run = Effect.fn("AgentTranscripts.run")(function*(input: TranscriptInput) {
        const { snapshot } = input
        const ops = yield* agentOps.get(input.workspaceId)
        const prepared = yield* runtime.prepare(input.workspaceId, input.agentId, snapshot)
        // The input guardrails judge the turn's message (the last); earlier ones are history as written.
        const turn = input.messages.at(-1)?.content ?? ""
        const judged = yield* runtime.judgeInput(input.workspaceId, snapshot, turn)
        const base: Array<Prompt.MessageEncoded> = [
          { role: "system", content: systemPrompt(snapshot, input.variables, {}) },
          ...input.messages.map((message, index): Prompt.MessageEncoded =>
            message.role === "user"
              ? { role: "user", content: index === input.messages.length - 1 ? judged.text : message.content }
              : { role: "assistant", content: message.content }
          )
        ]
        const runId = uuidv7()
        const started = Date.now()
        const { finish, steps } = judged.stop !== null ?
          { finish: guardrailFinish(judged.stop), steps: [] } :
          yield* runtime.run({
            prepared,
            limits: {
              maxModelSteps: snapshot.modelSettings.maxSteps,
              tokenBudget: { remaining: ops.tokenBudgets.perConversation, onExceeded: ops.tokenBudgets.onExceeded }
            },
            base,
            steps: [],
            record: () => Effect.void,
            keyOf: (call) =>
              toolIdempotencyKey({ conversationId: runId, turn: 1, step: call.index, callId: call.callId }),
            ...(input.mock === undefined ? {} : { mock: input.mock })
          })
        const toolIdOf = (name: string) => {
          const tool = prepared.tools.get(name)
          return tool === undefined || tool.kind === "builtin" ? null : tool.toolId
        }
        const lastModel = steps.filter((step) => step._tag === "ModelStep").at(-1)
        const byGuardrail = judged.stop !== null || lastModel?.stopped !== undefined
        return {
          reply: finish.text,
          toolCalls: turnToolCalls(steps, toolIdOf),
          guardrailEvents: [...judged.events, ...turnGuardrailEvents(steps)],
          handoff: finish.handoff === null
            ? null
            : { reason: finish.handoff.reason, triggeredBy: byGuardrail ? "guardrail" : "agent", target: null },
          finishReason: finishReasonOf(finish.reason),
          usage: turnUsage(steps),
          latencyMs: Math.max(0, Date.now() - started),
          model: { ...prepared.resolved, model: lastModel?.model ?? prepared.resolved.model }
        } satisfies TranscriptOutcome
      })

      return { run } as const
    })
  }
) {}
