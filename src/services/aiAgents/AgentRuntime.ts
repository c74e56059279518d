/**
 * Running an agent turn's loop: the pure decisions of `AgentLoop` carried
 * out. `prepare` turns what a turn runs (a snapshot) into a callable model
 * and tools; `run` then calls the model and the tools as `nextAction` says,
 * handing every step to `record` as it completes (the entity stores it,
 * fenced; a stateless playground run keeps it in memory), until it says
 * Finish. Given the steps a turn already stored, `run` resumes it: a model
 * step or a tool call with a stored step is never made again.
 *
 * A tool call that fails (an error answer, a time-out, bad input, an unknown
 * tool) is a failed tool step the model reads, never a failed turn. A model
 * provider that fails (after its breaker's retries and the fallback) ends the
 * run with `AgentTurnUpstreamFailed`.
 */
import { AiError, type Prompt, type Response, Tool } from "@effect/ai"
import { Clock, Effect, Either, Option, Redacted, Schema, Stream } from "effect"
import type { TurnGuardrailEvent } from "../../domain/aiAgents/AgentTurn.js"
import { AgentTurnUpstreamFailed } from "../../domain/aiAgents/AgentTurnOutcome.js"
import type { AiAgentSnapshot } from "../../domain/aiAgents/AiAgentSnapshot.js"
import { builtinTools } from "../../domain/aiAgents/EffectiveTool.js"
import { checkText, type SnapshotGuardrail } from "../../domain/aiAgents/guardrails/GuardrailCheck.js"
import { outputGuard } from "../../domain/aiAgents/guardrails/OutputGuard.js"
import { toolCallVerdict } from "../../domain/aiAgents/guardrails/ToolGuard.js"
import type { AiAgentConversationId, AiAgentId, EndUserId } from "../../domain/aiAgents/Ids.js"
import {
  type Finish,
  type LoopAction,
  type LoopLimits,
  type LoopMessage,
  messagesFor,
  nextAction,
  type PendingToolCall
} from "../../domain/aiAgents/loop/AgentLoop.js"
import type { LoopStep, ModelFinish, ModelStep, ToolStep } from "../../domain/aiAgents/loop/LoopStep.js"
import type { ResolvedModel } from "../../domain/aiAgents/ModelSettings.js"
import { storable } from "../../domain/aiAgents/StorableJson.js"
import type { BuiltinToolConfig } from "../../domain/aiAgents/ToolConfig.js"
import { excerpt } from "../../domain/Excerpt.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import { jsonOrText, type JsonValue } from "../../domain/Json.js"
import type { HttpToolDefinition } from "../../domain/workspace/HttpToolDefinition.js"
import { WorkspaceToolRepo } from "../../persistence/workspace/WorkspaceToolRepo.js"
import { fromAiError } from "../../providers/llm/LlmCallFailure.js"
import { LlmClients, type LlmTarget } from "../../providers/llm/LlmClients.js"
import { addPart, emptyAnswer, fromResponse, type ModelAnswer } from "../../providers/llm/ModelAnswer.js"
import { LlmInForce } from "../settings/LlmInForce.js"
import { ToolCalls } from "../workspace/ToolCalls.js"
import { UsageMeter } from "../workspace/UsageMeter.js"
import { AgentMemory } from "./AgentMemory.js"
import { KnowledgeEmbeddings } from "./KnowledgeEmbeddings.js"
import { KnowledgeRerank } from "./KnowledgeRerank.js"
import { KnowledgeSearch } from "./KnowledgeSearch.js"
import { TopicJudge } from "./TopicJudge.js"

/** A tool the model may call, ready to run. */
type RunnableTool =
  | {
    readonly kind: "http"
    readonly toolId: string
    readonly definition: HttpToolDefinition
    readonly fixedInput: Readonly<Record<string, JsonValue>>
  }
  | { readonly kind: "builtin"; readonly toolId: string; readonly config: typeof BuiltinToolConfig.Type }

/** A snapshot made callable for one run. */
export interface PreparedAgent {
  readonly workspaceId: WorkspaceId
  readonly agentId: string
  readonly agentName: string
  readonly primary: LlmTarget
  readonly fallback: LlmTarget | null
  readonly resolved: typeof ResolvedModel.Type
  readonly toolChoice: AiAgentSnapshot["modelSettings"]["toolChoice"]
  readonly offered: ReadonlyArray<Tool.Any>
  readonly tools: ReadonlyMap<string, RunnableTool>
  /** The loop's own tools the agent has, by the name the model calls them. */
  readonly builtIns: ReadonlyArray<string>
  readonly secrets: ReadonlyArray<string>
  /** The knowledge documents the snapshot lists: all `knowledge_search` may search. */
  readonly knowledgeIds: AiAgentSnapshot["knowledgeIds"]
  /** The snapshot's guardrails: output rules judge each model step's text and tool calls as they happen. */
  readonly guardrails: ReadonlyArray<SnapshotGuardrail>
}

/** What `run` needs besides the prepared agent. */
export interface LoopRun {
  readonly prepared: PreparedAgent
  readonly limits: LoopLimits
  /** The prompt before this turn's steps: system, earlier messages, the user's message. */
  readonly base: ReadonlyArray<Prompt.Message | Prompt.MessageEncoded>
  /** The steps already stored (a resumed turn), any order. */
  readonly steps: ReadonlyArray<LoopStep>
  /** Store one completed step; called once per step, before the next action is decided. */
  readonly record: (step: LoopStep) => Effect.Effect<void>
  /** The Idempotency-Key of one tool call. */
  readonly keyOf: (call: PendingToolCall) => string
  /** The stored conversation the turn belongs to, for `remember`; none for a stateless transcript. */
  readonly conversation?: TurnConversation
  /** When given, model answers are streamed and each piece of text is passed here with its step's index. */
  readonly onDelta?: (index: number, delta: string) => Effect.Effect<void>
  /** Tools answered without running them (an eval case's mocks): the output the model receives, by tool name. */
  readonly mock?: (name: string) => JsonValue | undefined
}

/** What `remember` needs of the turn: its stored conversation and the end user it is with. */
export interface TurnConversation {
  readonly conversationId: AiAgentConversationId
  readonly endUserId: EndUserId | null
}

/** A finished run: the Finish action and every step, in index order. */
export interface LoopOutcome {
  readonly finish: typeof Finish.Type
  readonly steps: ReadonlyArray<LoopStep>
}

/**
 * The parts of a tool's answer the injection rules read: windows of 8,000
 * characters overlapping by 400 (a phrase cut at a window's edge is whole in
 * the next), the first `SCANNED` characters only, so a large answer costs a
 * bounded time and the event loop runs between windows.
 */
const SCANNED = 64_000
const scanWindows = (body: string, rules: number): Array<string> => {
  if (rules === 0) return []
  const windows: Array<string> = []
  for (let at = 0; at < Math.min(body.length, SCANNED); at += 7_600) windows.push(body.slice(at, at + 8_000))
  return windows
}

/** The prompt-injection rules that also read tool results (`scanToolResults`). */
const injectionScanners = (guardrails: ReadonlyArray<SnapshotGuardrail>) =>
  guardrails.filter((guardrail) => guardrail.rule.kind === "prompt-injection" && guardrail.rule.scanToolResults)

/** The arguments any JSON object fits, offered to the model under the tool's own JSON schema. */
const anyObject = Schema.Struct({}, Schema.Record({ key: Schema.String, value: Schema.Unknown }))

/** A model-facing tool with a JSON schema of the agent's (not an Effect schema). */
const offeredTool = (name: string, description: string, jsonSchema: unknown): Tool.Any => {
  const base = Tool.make(name, { description })
  return Object.assign(Object.create(Object.getPrototypeOf(base)), base, {
    parametersSchema: anyObject.annotations({ jsonSchema: jsonSchema as object })
  })
}

const withoutFixed = (schema: unknown, fixed: Readonly<Record<string, JsonValue>>): unknown => {
  const names = Object.keys(fixed)
  if (names.length === 0 || typeof schema !== "object" || schema === null) return schema
  const object = schema as { properties?: Record<string, unknown>; required?: ReadonlyArray<string> }
  return {
    ...object,
    ...(object.properties === undefined
      ? {}
      : { properties: Object.fromEntries(Object.entries(object.properties).filter(([key]) => !names.includes(key))) }),
    ...(object.required === undefined ? {} : { required: object.required.filter((key) => !names.includes(key)) })
  }
}

const finishOf = (reason: string): ModelFinish =>
  reason === "stop" || reason === "length" || reason === "tool-calls" || reason === "content-filter"
    ? reason
    : "other"

/** A tool's answer as the model reads it: its JSON, or its text (cut to 16,000 characters) when it is not JSON. */
const resultOf = (body: string): JsonValue => {
  const value = jsonOrText(body)
  return typeof value === "string" ? excerpt(value, 16_000) : value
}

/** The prompt messages of the turn's steps. */
export const promptOf = (messages: ReadonlyArray<LoopMessage>): Array<Prompt.MessageEncoded> =>
  messages.map((message): Prompt.MessageEncoded =>
    message.role === "assistant"
      ? {
        role: "assistant",
        content: [
          ...(message.text === "" ? [] : [{ type: "text" as const, text: message.text }]),
          ...message.toolCalls.map((call) => ({
            type: "tool-call" as const,
            id: call.id,
            name: call.name,
            params: call.arguments,
            providerExecuted: false
          }))
        ]
      }
      : {
        role: "tool",
        content: [{
          type: "tool-result" as const,
          id: message.callId,
          name: message.name,
          isFailure: message.isFailure,
          result: message.content,
          providerExecuted: false
        }]
      }
  )

export class AgentRuntime extends Effect.Service<AgentRuntime>()("parley/services/aiAgents/AgentRuntime", {
  effect: Effect.gen(function*() {
    const inForce = yield* LlmInForce
    const clients = yield* LlmClients
    const toolCalls = yield* ToolCalls
    const usage = yield* UsageMeter
    const workspaceTools = yield* WorkspaceToolRepo
    const memory = yield* AgentMemory
    const knowledge = yield* KnowledgeSearch
    const embeddings = yield* KnowledgeEmbeddings
    const reranker = yield* KnowledgeRerank
    const topics = yield* TopicJudge

    const upstream = (provider: string, message: string) => new AgentTurnUpstreamFailed({ provider, message })

    /** The model connection an agent uses: the workspace's in force, or its explicit choice through it. */
    const targets = (workspaceId: WorkspaceId, snapshot: AiAgentSnapshot) =>
      Effect.mapError(
        inForce.targets(workspaceId, snapshot.modelSettings, { kind: "system" }),
        (unavailable) => upstream(unavailable.provider, unavailable.message)
      )

    /** A snapshot made callable: its model and its enabled tools. */
    const prepare = Effect.fn("AgentRuntime.prepare")(
      function*(workspaceId: WorkspaceId, agentId: string, snapshot: AiAgentSnapshot) {
        const { fallback, primary, resolved } = yield* targets(workspaceId, snapshot)
        // Output rules by examples find their classifiers trained (in slices, once per node) before the reply.
        yield* topics.warm(snapshot.guardrails)
        const tools = new Map<string, RunnableTool>()
        const offered: Array<Tool.Any> = []
        const builtIns: Array<string> = []
        for (const tool of snapshot.tools.filter((candidate) => candidate.enabled)) {
          const config = tool.config
          if (config.kind === "http") {
            tools.set(tool.name, { kind: "http", toolId: tool.id, definition: config, fixedInput: {} })
            offered.push(offeredTool(tool.name, tool.description ?? tool.name, config.inputSchema))
          } else if (config.kind === "workspace") {
            const found = yield* workspaceTools.find(workspaceId, config.workspaceToolId)
            if (found === undefined) continue
            const overrides = config.overrides
            const fixedInput = (overrides.fixedInput ?? {}) as Readonly<Record<string, JsonValue>>
            const definition: HttpToolDefinition = {
              ...found,
              timeoutSeconds: overrides.timeoutSeconds ?? found.timeoutSeconds,
              maxResponseBytes: overrides.maxResponseBytes ?? found.maxResponseBytes,
              headers: { ...found.headers, ...overrides.headers },
              query: { ...found.query, ...overrides.query }
            }
            tools.set(tool.name, { kind: "http", toolId: tool.id, definition, fixedInput })
            offered.push(
              offeredTool(tool.name, tool.description ?? found.description, withoutFixed(found.inputSchema, fixedInput))
            )
          } else {
            const builtin = builtinTools[config.builtin]
            tools.set(tool.name, { kind: "builtin", toolId: tool.id, config })
            offered.push(offeredTool(tool.name, tool.description ?? builtin.description, builtin.inputSchema))
            if (tool.name === config.builtin) builtIns.push(tool.name)
          }
        }
        return {
          workspaceId,
          agentId,
          agentName: snapshot.name,
          primary,
          fallback,
          resolved,
          toolChoice: snapshot.modelSettings.toolChoice,
          offered,
          tools,
          builtIns,
          guardrails: snapshot.guardrails,
          knowledgeIds: snapshot.knowledgeIds,
          secrets: [primary, fallback].flatMap((target) =>
            target === null ? [] : Option.toArray(Option.map(target.apiKey, Redacted.value))
          )
        } satisfies PreparedAgent
      }
    )

    /**
     * One model call: the model step at `index`. With `onDelta`, the answer is
     * streamed and each piece of its text is passed on as it arrives (the step
     * stored is the same either way).
     */
    const callModel = Effect.fn("AgentRuntime.callModel")(
      function*(
        prepared: PreparedAgent,
        prompt: Prompt.RawInput,
        index: number,
        onDelta?: (delta: string) => Effect.Effect<void>
      ) {
        const provider = prepared.primary.connection.provider
        const model = yield* Effect.mapError(
          clients.languageModel(prepared.primary, prepared.fallback),
          (failure) => upstream(provider, failure.message)
        )
        const started = yield* Clock.currentTimeMillis
        const toolkit = prepared.offered.length === 0 ? undefined : {
          tools: Object.fromEntries(prepared.offered.map((tool) => [tool.name, tool])),
          handle: () => Effect.die("agent tools are run by the loop, not the toolkit")
        }
        const choice = prepared.toolChoice
        const options: any = toolkit === undefined ? { prompt } : {
          prompt,
          toolkit,
          disableToolCallResolution: true,
          toolChoice: typeof choice === "string" ? choice : { tool: choice.tool }
        }
        // The output guardrails see the text as it is written; what they let through is what is shown and stored.
        const guard = outputGuard(prepared.guardrails)
        const show = (delta: string) => {
          const shown = guard === undefined ? delta : guard.push(delta)
          return shown === "" || onDelta === undefined ? Effect.void : onDelta(shown)
        }
        const answered: Effect.Effect<ModelAnswer, unknown> = onDelta === undefined
          ? Effect.map(model.generateText(options) as Effect.Effect<any, unknown>, fromResponse)
          : Stream.runFoldEffect(
            model.streamText(options) as Stream.Stream<Response.AnyPart, unknown>,
            emptyAnswer,
            (answer, part) =>
              part.type === "text-delta" && part.delta !== ""
                ? Effect.as(show(part.delta), addPart(answer, part))
                : Effect.succeed(addPart(answer, part))
          )
        const answer = yield* answered.pipe(
          Effect.mapError((error) =>
            upstream(
              provider,
              fromAiError(
                AiError.isAiError(error)
                  ? error
                  : new AiError.UnknownError({ module: "AgentRuntime", method: "callModel", cause: error }),
                prepared.secrets
              ).message
            )
          )
        )
        if (guard !== undefined) {
          if (onDelta === undefined) guard.push(answer.text)
          const rest = guard.end()
          if (rest !== "" && onDelta !== undefined) yield* onDelta(rest)
        }
        const stopped = guard?.stop() ?? null
        const events = guard?.events() ?? []
        const latencyMs = (yield* Clock.currentTimeMillis) - started
        const tokens = { inputTokens: answer.inputTokens, outputTokens: answer.outputTokens }
        yield* usage.record({
          workspaceId: prepared.workspaceId,
          provider,
          model: prepared.primary.connection.model,
          ...tokens
        })
        return storable(
          {
            _tag: "ModelStep",
            index,
            text: guard === undefined ? answer.text : guard.shown(),
            // A stopped step's calls never run: the turn ends with the guardrail.
            toolCalls: stopped !== null ? [] : answer.toolCalls.map((call) => ({
              id: call.id,
              name: call.name,
              arguments: call.params as JsonValue
            })),
            finish: finishOf(answer.finishReason),
            usage: tokens,
            latencyMs: Math.max(0, Math.round(latencyMs)),
            model: excerpt(answer.modelId ?? prepared.primary.connection.model, 200),
            ...(events.length === 0 ? {} : { guardrailEvents: events }),
            ...(stopped === null ? {} : { stopped })
          } satisfies ModelStep
        )
      }
    )

    /** One tool call: its tool step, whatever happened. */
    const runTool = (
      prepared: PreparedAgent,
      call: PendingToolCall,
      key: string,
      conversation: TurnConversation | undefined
    ): Effect.Effect<ToolStep> =>
      Effect.gen(function*() {
        const started = yield* Clock.currentTimeMillis
        const judged: Array<TurnGuardrailEvent> = []
        const ended = (
          status: ToolStep["status"],
          result: JsonValue,
          error: string | null
        ) =>
          Effect.map(Clock.currentTimeMillis, (now): ToolStep =>
            storable({
              _tag: "ToolStep",
              index: call.index,
              callId: call.callId,
              name: call.name,
              status,
              result: status === "succeeded" ? result : null,
              error: status === "succeeded" ? null : excerpt(error ?? "The tool failed.", 2000),
              durationMs: Math.max(0, Math.round(now - started)),
              ...(judged.length === 0 ? {} : { guardrailEvents: judged })
            }))
        const tool = prepared.tools.get(call.name)
        if (tool === undefined) return yield* ended("failed", null, `There is no tool named ${call.name}`)
        if (tool.kind === "builtin") {
          switch (tool.config.builtin) {
            case "knowledge_search": {
              const found = yield* knowledge.forTool(
                prepared.agentId as AiAgentId,
                prepared.knowledgeIds,
                tool.config.settings,
                call.arguments,
                {
                  embed: (query) => embeddings.queryVector(prepared.workspaceId, query),
                  rerank: (query, passages) => reranker.rerank(prepared, query, passages)
                }
              )
              return Either.isRight(found)
                ? yield* ended("succeeded", found.right, null)
                : yield* ended("failed", null, found.left)
            }
            case "remember": {
              if (conversation === undefined) {
                return yield* ended(
                  "failed",
                  null,
                  "Nothing is remembered in a stateless playground transcript; use a playground conversation"
                )
              }
              const args = call.arguments
              const fields: Readonly<Record<string, JsonValue>> =
                typeof args === "object" && args !== null && !Array.isArray(args) ? args as never : {}
              const content = fields["content"]
              if (typeof content !== "string") {
                return yield* ended("failed", null, "remember needs `content`: the fact, in one sentence")
              }
              const key = fields["key"]
              const kept = yield* memory.remember(prepared.agentId as AiAgentId, prepared.workspaceId, {
                scope: tool.config.settings.scope,
                retention: tool.config.settings.retention,
                endUserId: conversation.endUserId,
                conversationId: conversation.conversationId,
                key: typeof key === "string" ? key : null,
                content
              })
              return kept._tag === "Kept"
                ? yield* ended("succeeded", { kept: true, key: kept.fact.key, replaced: kept.replaced }, null)
                : yield* ended("failed", null, kept.message)
            }
            case "handoff":
              return yield* ended("failed", null, "The handoff tool must be called `handoff`")
          }
        }
        const verdict = toolCallVerdict(prepared.guardrails, tool.definition.url)
        judged.push(...verdict.events)
        if (verdict.blocked !== null) return yield* ended("blocked", null, verdict.blocked)
        const args = call.arguments
        const input: JsonValue = typeof args === "object" && args !== null && !Array.isArray(args)
          ? { ...args, ...tool.fixedInput }
          : Object.keys(tool.fixedInput).length > 0
          ? tool.fixedInput
          : args
        const limitMs = tool.definition.timeoutSeconds * 1000 + 2000
        const answer = yield* toolCalls.call(
          {
            workspaceId: prepared.workspaceId,
            usedBy: { kind: "ai-agent", id: prepared.agentId, name: prepared.agentName.slice(0, 200) },
            actor: { kind: "system" }
          },
          tool.definition,
          input,
          { "idempotency-key": key }
        ).pipe(
          Effect.timeoutFail({
            duration: limitMs,
            onTimeout: () => ({ _tag: "OutboundTimedOut" as const, message: "The tool did not answer in time." })
          }),
          Effect.either
        )
        if (Either.isLeft(answer)) {
          const failure = answer.left
          if (failure._tag === "OutboundTimedOut") return yield* ended("timed-out", null, failure.message)
          if (failure._tag === "OutboundRefused") return yield* ended("blocked", null, failure.message)
          if (failure._tag === "ToolInputInvalid") {
            const problems = failure.problems.map((problem) => `${problem.pointer || "/"}: ${problem.message}`)
            return yield* ended("failed", null, `${failure.message}: ${problems.join("; ")}`)
          }
          return yield* ended("failed", null, failure.message)
        }
        const { body, status } = answer.right
        if (status >= 400) {
          return yield* ended("failed", null, `The tool answered HTTP ${status}: ${excerpt(body, 500)}`)
        }
        // Instructions smuggled into what a tool answered are judged before the model reads them.
        const scanners = injectionScanners(prepared.guardrails)
        for (const window of scanWindows(body, scanners.length)) {
          const scanned = checkText(scanners, "input", window)
          if (scanned.events.length === 0) {
            yield* Effect.yieldNow()
            continue
          }
          judged.push(...scanned.events)
          if (scanned.stop !== null) {
            return yield* ended("blocked", null, `A guardrail withheld this tool's answer (${scanned.stop.name}).`)
          }
          break
        }
        return yield* ended("succeeded", resultOf(body), null)
      }).pipe(Effect.withSpan("AgentRuntime.runTool", { attributes: { tool: call.name } }))

    /** A mocked tool's step (it succeeds at once with the mock's output), or the tool run for real. */
    const mockedOrRun = (input: LoopRun, call: PendingToolCall): Effect.Effect<ToolStep> => {
      const output = input.mock?.(call.name)
      return output === undefined
        ? runTool(input.prepared, call, input.keyOf(call), input.conversation)
        : Effect.succeed(storable(
          {
            _tag: "ToolStep",
            index: call.index,
            callId: call.callId,
            name: call.name,
            status: "succeeded",
            result: output,
            error: null,
            durationMs: 0
          } satisfies ToolStep
        ))
    }

    /** Run the loop from the given steps to its Finish. */
    const run = Effect.fn("AgentRuntime.run")(function*(input: LoopRun) {
      const steps: Array<LoopStep> = [...input.steps]
      const { builtIns } = input.prepared
      while (true) {
        const decided = nextAction({ steps, limits: input.limits, builtIns })
        if (Either.isLeft(decided)) return yield* Effect.die(decided.left)
        const action: LoopAction = decided.right
        switch (action._tag) {
          case "Finish":
            return { finish: action, steps: [...steps].sort((a, b) => a.index - b.index) } satisfies LoopOutcome
          case "CallModel": {
            const messages = messagesFor(steps)
            if (Either.isLeft(messages)) return yield* Effect.die(messages.left)
            const onDelta = input.onDelta
            const step = yield* callModel(
              input.prepared,
              [...input.base, ...promptOf(messages.right)] as any,
              action.index,
              onDelta === undefined ? undefined : (delta) => onDelta(action.index, delta)
            )
            yield* input.record(step)
            steps.push(step)
            break
          }
          case "RunTools": {
            yield* Effect.forEach(
              action.calls,
              (call) =>
                Effect.flatMap(
                  mockedOrRun(input, call),
                  (step) => Effect.zipRight(input.record(step), Effect.sync(() => steps.push(step)))
                ),
              { concurrency: "unbounded", discard: true }
            )
            break
          }
        }
      }
    })

    /** The input guardrails' verdict on a user's message (the model asked first for `llm` topic rules). */
    const judgeInput = topics.judgeInput

    return { prepare, run, judgeInput } as const
  }),
  dependencies: [
    WorkspaceToolRepo.Default,
    KnowledgeSearch.Default,
    TopicJudge.Default,
    KnowledgeEmbeddings.Default,
    KnowledgeRerank.Default
  ]
}) {}
