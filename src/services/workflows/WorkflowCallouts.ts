/**
 * The calls out of a workflow's `llm`, `ai-agent` and `http` nodes, bound to
 * one run (a chain run's step, a simulator session) by `forRun`: its
 * workspace, the resource its tool calls and key reads are recorded against,
 * the actor they act for, and the prefix every key of the run starts from.
 * What each answer becomes is `CalloutAnswers`; every failure is a
 * `CalloutFailure` with a sentence and no secret, never a defect, so the
 * node's `maxAttempts` and `onError: route` apply. An attempt after the first
 * waits a short back-off first (0.25 s, doubling, at most 2 s).
 *
 * - `http` calls the workspace tool through `ToolCalls` (vault secrets,
 *   address rules, masking) with the evaluated arguments as input and an
 *   `idempotency-key` header derived from the run's prefix and the
 *   execution's key, the same on every attempt and after a replay, so the
 *   receiver can drop a repeat.
 * - `llm` calls the workspace's model in force (or the node's own model,
 *   through the workspace's connection for its provider, as an agent's
 *   explicit model is reached) with the node's temperature and token limit,
 *   and meters its tokens.
 * - `ai-agent` sends one turn to the agent's live version
 *   (`AgentTurns.liveTurn`) in the run's own conversation with that agent
 *   (named by the prefix, so a replay reuses it). The turn's key comes from
 *   the execution's key, so a replayed execution gets the turn stored under
 *   it and never a second one. A turn that failed is stored as failed under
 *   its key: a later attempt of the same execution then asks again under the
 *   next key (its generation), after answering the earlier generations from
 *   storage, so the keys an attempt uses never depend on timing and a retry
 *   is a real new turn. A failure that is not stored (the turn could not be
 *   delivered or is still running) keeps the key, so the next attempt picks
 *   up that same turn.
 */
import { AiError } from "@effect/ai"
import { Duration, Effect, Either, Option, Redacted } from "effect"
import type { AuditActor } from "../../domain/identity/Actor.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { JsonValue } from "../../domain/Json.js"
import { placeIdempotencyKey } from "../../domain/PlaceIdempotencyKey.js"
import {
  agentOutput,
  agentVariables,
  httpOutput,
  structuredAnswer,
  structuredSystem
} from "../../domain/workflows/callouts/CalloutAnswers.js"
import {
  type AgentCall,
  type CallContext,
  CalloutFailure,
  type HttpCall,
  type LlmCall,
  type WorkflowCallouts as Callouts
} from "../../domain/workflows/engine/WorkflowHooks.js"
import type { ResourceRef } from "../../domain/workspace/ResourceRef.js"
import { WorkspaceToolRepo } from "../../persistence/workspace/WorkspaceToolRepo.js"
import { fromAiError } from "../../providers/llm/LlmCallFailure.js"
import { LlmClients } from "../../providers/llm/LlmClients.js"
import { AgentTurns, turnOutcomeOf } from "../aiAgents/AgentTurns.js"
import { LlmInForce } from "../settings/LlmInForce.js"
import { ToolCalls } from "../workspace/ToolCalls.js"
import { UsageMeter } from "../workspace/UsageMeter.js"
import { definitionOf } from "../workspace/WorkspaceTools.js"

/** What a run's calls out act for. */
export interface CalloutRun {
  readonly workspaceId: WorkspaceId
  /** The resource whose run reads secrets and calls tools (a chain, a workflow in the simulator). */
  readonly usedBy: ResourceRef
  readonly actor: AuditActor
  /** Unique to the run (or session) and the same on every replay of it: the root of the keys its calls carry. */
  readonly idempotencyPrefix: string
}

/** The `idempotency-key` header of an http node's call: the same for every attempt of one execution. */
export const httpIdempotencyKey = (run: Pick<CalloutRun, "idempotencyPrefix">, key: string): string =>
  placeIdempotencyKey("pwh_", { run: run.idempotencyPrefix, key })

/** The key of an ai-agent node's turn: per execution, and per generation after a stored failure. */
export const agentTurnKey = (run: Pick<CalloutRun, "idempotencyPrefix">, key: string, generation: number): string =>
  placeIdempotencyKey("pwa_", { run: run.idempotencyPrefix, key, generation })

/** The wait before attempt `attempt` of a call (none before the first). */
const backoff = (attempt: number) =>
  attempt <= 1 ? Effect.void : Effect.sleep(Duration.millis(Math.min(2_000, 250 * 2 ** (attempt - 2))))

const failure = (message: string) => new CalloutFailure({ message })

/** The seconds a tool call may take beyond its own time-out before it is given up (as an agent's tool call). */
const TOOL_GRACE_MS = 2_000

export class WorkflowCallouts extends Effect.Service<WorkflowCallouts>()("parley/services/workflows/WorkflowCallouts", {
  effect: Effect.gen(function*() {
    const tools = yield* WorkspaceToolRepo
    const toolCalls = yield* ToolCalls
    const inForce = yield* LlmInForce
    const clients = yield* LlmClients
    const usage = yield* UsageMeter
    const turns = yield* AgentTurns

    const http = Effect.fn("WorkflowCallouts.http")(
      function*(run: CalloutRun, call: HttpCall, context: CallContext): Effect.fn.Return<JsonValue, CalloutFailure> {
        yield* Effect.annotateCurrentSpan({ nodeId: context.nodeId, key: context.key, attempt: context.attempt })
        const tool = yield* tools.find(run.workspaceId, call.toolId)
        if (tool === undefined) {
          return yield* failure(`No workspace tool ${call.toolId} in this workspace: it was deleted, or never existed`)
        }
        const answer = yield* toolCalls.call(
          { workspaceId: run.workspaceId, usedBy: run.usedBy, actor: run.actor },
          definitionOf(tool),
          call.arguments,
          { "idempotency-key": httpIdempotencyKey(run, context.key) }
        ).pipe(
          Effect.timeoutFail({
            duration: tool.timeoutSeconds * 1000 + TOOL_GRACE_MS,
            onTimeout: () => failure(`The tool ${tool.name} did not answer in time`)
          }),
          Effect.mapError((error) => {
            switch (error._tag) {
              case "CalloutFailure":
                return error
              case "ToolInputInvalid":
                return failure(
                  `The arguments do not fit the input of the tool ${tool.name}: ${
                    error.problems.slice(0, 10).map((problem) => `${problem.pointer || "/"} ${problem.message}`)
                      .join("; ") || error.message
                  }`
                )
              case "SecretReferenceMissing":
                return failure(`The tool ${tool.name} cannot be called: ${error.message}`)
              default:
                return failure(`The tool ${tool.name} could not be reached: ${error.message}`)
            }
          })
        )
        return yield* Either.match(httpOutput(tool.name, answer), { onLeft: failure, onRight: Effect.succeed })
      }
    )

    const llm = Effect.fn("WorkflowCallouts.llm")(
      function*(run: CalloutRun, call: LlmCall, context: CallContext): Effect.fn.Return<JsonValue, CalloutFailure> {
        yield* Effect.annotateCurrentSpan({ nodeId: context.nodeId, key: context.key, attempt: context.attempt })
        const targets = yield* inForce.targets(run.workspaceId, {
          model: call.model === undefined ? { source: "workspace-default" } : { source: "explicit", ...call.model },
          temperature: call.temperature,
          maxOutputTokens: call.maxOutputTokens
        }, run.actor).pipe(Effect.mapError((unavailable) => failure(unavailable.message)))
        const { primary } = targets
        const secrets = [primary, targets.fallback].flatMap((target) =>
          target === null ? [] : Option.toArray(Option.map(target.apiKey, Redacted.value))
        )
        const model = yield* clients.languageModel(primary, targets.fallback).pipe(
          Effect.mapError((unreachable) => failure(`The language model cannot be called: ${unreachable.message}`))
        )
        const schema = call.outputSchema
        const system = schema === undefined ? call.system : structuredSystem(call.system, schema)
        const response = yield* model.generateText({
          prompt: [
            ...(system === undefined || system === "" ? [] : [{ role: "system" as const, content: system }]),
            { role: "user" as const, content: call.prompt }
          ]
        }).pipe(
          Effect.mapError((error) =>
            failure(
              `The language model failed: ${
                fromAiError(
                  AiError.isAiError(error)
                    ? error
                    : new AiError.UnknownError({ module: "WorkflowCallouts", method: "llm", cause: error }),
                  secrets
                ).message
              }`
            )
          )
        )
        yield* usage.record({
          workspaceId: run.workspaceId,
          provider: primary.connection.provider,
          model: primary.connection.model,
          inputTokens: response.usage.inputTokens ?? 0,
          outputTokens: response.usage.outputTokens ?? 0
        })
        if (schema === undefined) return response.text
        return yield* Either.match(structuredAnswer(response.text, schema), {
          onLeft: failure,
          onRight: Effect.succeed
        })
      }
    )

    const agent = Effect.fn("WorkflowCallouts.agent")(
      function*(run: CalloutRun, call: AgentCall, context: CallContext): Effect.fn.Return<JsonValue, CalloutFailure> {
        yield* Effect.annotateCurrentSpan({ nodeId: context.nodeId, key: context.key, attempt: context.attempt })
        const variables = agentVariables(call.context)
        for (let generation = 0;; generation++) {
          const sent = yield* Effect.either(turns.liveTurn({
            workspaceId: run.workspaceId,
            slug: call.agentSlug,
            channel: "workflow",
            conversationKey: run.idempotencyPrefix,
            message: call.message,
            variables,
            idempotencyKey: agentTurnKey(run, context.key, generation),
            actor: run.actor
          }))
          if (Either.isRight(sent)) return agentOutput(sent.right, turnOutcomeOf(sent.right))
          const error = sent.left
          switch (error._tag) {
            case "UpstreamFailed":
            case "TurnFailed":
              // Stored as this key's answer: an attempt after the one that met it asks again under the next key.
              if (generation + 1 < context.attempt) continue
              return yield* failure(`The AI agent ${call.agentSlug} failed to answer: ${error.message}`)
            case "AiAgentNotFound":
            case "AiAgentNotPublished":
              return yield* failure(error.message)
            case "ValidationFailed":
              return yield* failure(`The message to the AI agent ${call.agentSlug} cannot be sent: ${error.message}`)
            default:
              return yield* failure(`The AI agent ${call.agentSlug} did not answer: ${error.message}`)
          }
        }
      }
    )

    /** The calls out of one run. */
    const forRun = (run: CalloutRun): Callouts => ({
      http: (call, context) => Effect.zipRight(backoff(context.attempt), http(run, call, context)),
      llm: (call, context) => Effect.zipRight(backoff(context.attempt), llm(run, call, context)),
      agent: (call, context) => Effect.zipRight(backoff(context.attempt), agent(run, call, context))
    })

    return { forRun } as const
  }),
  dependencies: [WorkspaceToolRepo.Default]
}) {}
