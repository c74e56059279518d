/**
 * Trying an agent's tool once with sample input (`POST
 * /ai-agents/{slug}/tools/{tid}/test`), as `WorkspaceToolTests` does for a
 * workspace tool: an `http` tool runs its own definition, a `workspace` tool
 * the shared tool's under the agent's overrides (`EffectiveTool`: what a real
 * turn runs), both through `ToolCalls` (input checked against the schema,
 * secrets from the vault, masked in the answer). Any answer of the upstream is
 * a result; no answer is `UpstreamFailed`, a time-out `Timeout`.
 * `knowledge_search` searches for real, as a playground turn would: the
 * draft's documents (those of its settings' `knowledgeIds` when it names
 * some), answering the citations with the query and limit searched. The other
 * built-ins run dry: `remember` and `handoff` report what they would do and
 * store nothing. Nothing is stored.
 */
import { Effect, Either } from "effect"
import type { AiAgent } from "../../domain/aiAgents/AiAgent.js"
import { builtinTools, effectiveDefinition, effectiveInput } from "../../domain/aiAgents/EffectiveTool.js"
import type { AiAgentToolId } from "../../domain/aiAgents/Ids.js"
import { type AiAgentTool, AiAgentToolInvalid } from "../../domain/aiAgents/Tool.js"
import type { AiAgentToolConfig } from "../../domain/aiAgents/ToolConfig.js"
import { AiAgentToolInputInvalid, type AiAgentToolTestResult } from "../../domain/aiAgents/ToolTest.js"
import { actorOf, type Principal } from "../../domain/identity/Principal.js"
import type { JsonValue } from "../../domain/Json.js"
import type { HttpToolDefinition } from "../../domain/workspace/HttpToolDefinition.js"
import { inputProblems } from "../../domain/workspace/ToolInputValidation.js"
import { AgentDraftCollectionsRepo } from "../../persistence/aiAgents/AgentDraftCollectionsRepo.js"
import { AiAgentToolRepo } from "../../persistence/aiAgents/AiAgentToolRepo.js"
import { WorkspaceToolRepo } from "../../persistence/workspace/WorkspaceToolRepo.js"
import { ToolCalls } from "../workspace/ToolCalls.js"
import { testCall } from "../workspace/ToolTestCall.js"
import { definitionOf } from "../workspace/WorkspaceTools.js"
import { AgentDraftLock } from "./AgentDraftLock.js"
import { agentToolRef, inlineDefinition, toolNotFound } from "./AiAgentTools.js"
import { KnowledgeEmbeddings } from "./KnowledgeEmbeddings.js"
import { KnowledgeSearch } from "./KnowledgeSearch.js"

type Input = { readonly [key: string]: JsonValue }

const inputInvalid = (problems: ReadonlyArray<{ readonly pointer: string; readonly message: string }>) =>
  new AiAgentToolInputInvalid({ message: "The input does not satisfy the tool's input schema", problems })

/** The built-ins that run dry in a test. */
type DryBuiltin = Extract<AiAgentToolConfig, { readonly builtin: "remember" | "handoff" }>

/** What `remember` or `handoff` would do with this input, run dry. */
const dryRun = (config: DryBuiltin, input: Input): JsonValue => {
  switch (config.builtin) {
    case "remember":
      return {
        dryRun: true,
        wouldRemember: {
          scope: config.settings.scope,
          retention: config.settings.retention,
          key: input.key ?? null,
          content: input.content ?? null
        }
      }
    case "handoff":
      return {
        dryRun: true,
        wouldHandOff: {
          reason: input.reason ?? null,
          message: config.settings.message,
          queue: config.settings.queue
        }
      }
  }
}

export class AiAgentToolTests extends Effect.Service<AiAgentToolTests>()(
  "parley/services/aiAgents/AiAgentToolTests",
  {
    effect: Effect.gen(function*() {
      const drafts = yield* AgentDraftLock
      const tools = yield* AiAgentToolRepo
      const workspaceTools = yield* WorkspaceToolRepo
      const calls = yield* ToolCalls
      const collections = yield* AgentDraftCollectionsRepo
      const knowledge = yield* KnowledgeSearch
      const embeddings = yield* KnowledgeEmbeddings

      /** What the built-in answers: a real search for `knowledge_search`, a dry run for the others. */
      const builtinOutput = Effect.fn("AiAgentToolTests.builtinOutput")(function*(
        agent: AiAgent,
        config: Extract<AiAgentToolConfig, { readonly kind: "builtin" }>,
        input: Input
      ) {
        if (config.builtin !== "knowledge_search") return dryRun(config, input)
        const found = yield* knowledge.forTool(
          agent.id,
          yield* collections.knowledgeIds(agent.id),
          config.settings,
          input,
          // The query's vector as a turn's (with an embeddings provider); no model call: no rerank.
          {
            embed: (query) => embeddings.queryVector(agent.workspaceId, query),
            rerank: (_query, passages) => Effect.succeed(passages)
          }
        )
        if (Either.isLeft(found)) return yield* inputInvalid([{ pointer: "", message: found.left }])
        const answer = found.right as { readonly [key: string]: JsonValue }
        return { query: input.query ?? null, limit: input.limit ?? config.settings.topK, ...answer }
      })

      /** The definition and arguments a call of the tool sends. */
      const resolve = Effect.fn("AiAgentToolTests.resolve")(function*(
        principal: Principal,
        tool: AiAgentTool,
        input: Input
      ) {
        const { config } = tool
        if (config.kind === "http") return { definition: inlineDefinition(config), input }
        if (config.kind !== "workspace") return undefined
        const shared = yield* workspaceTools.find(principal.workspaceId, config.workspaceToolId)
        if (shared === undefined) {
          return yield* new AiAgentToolInvalid({
            message: "config.workspaceToolId: the workspace tool no longer exists",
            problems: [{ field: "config.workspaceToolId", message: "no workspace tool with this id" }]
          })
        }
        return {
          definition: effectiveDefinition(definitionOf(shared), config.overrides),
          input: effectiveInput(input, config.overrides)
        }
      })

      const callHttp = Effect.fn("AiAgentToolTests.callHttp")(function*(
        principal: Principal,
        ref: ReturnType<typeof agentToolRef>,
        tool: AiAgentTool,
        definition: HttpToolDefinition,
        input: Input
      ) {
        const caller = { workspaceId: principal.workspaceId, usedBy: ref, actor: actorOf(principal) }
        const answer = yield* testCall(calls, caller, tool.name, definition, input).pipe(
          Effect.catchTag("ToolInputInvalid", (failure) => inputInvalid(failure.problems))
        )
        return { toolId: tool.id, name: tool.name, kind: tool.config.kind, ...answer } satisfies AiAgentToolTestResult
      })

      const test = Effect.fn("AiAgentToolTests.test")(function*(
        principal: Principal,
        slug: string,
        id: AiAgentToolId,
        input: Input
      ) {
        const agent = yield* drafts.find(principal, slug)
        const tool = (yield* tools.find(agent.id, id)) ?? (yield* toolNotFound(id))
        const resolved = yield* resolve(principal, tool, input)
        if (resolved !== undefined) {
          return yield* callHttp(principal, agentToolRef(agent, tool), tool, resolved.definition, resolved.input)
        }
        if (tool.config.kind !== "builtin") {
          return yield* Effect.die("a tool that is neither http, workspace nor builtin")
        }
        const started = performance.now()
        const problems = inputProblems(builtinTools[tool.config.builtin].inputSchema, input)
        if (problems.length > 0) return yield* inputInvalid(problems)
        const output = yield* builtinOutput(agent, tool.config, input)
        return {
          ok: true,
          toolId: tool.id,
          name: tool.name,
          kind: "builtin",
          latencyMs: Math.round(performance.now() - started),
          request: null,
          response: null,
          output,
          error: null
        } satisfies AiAgentToolTestResult
      })

      return { test } as const
    }),
    dependencies: [
      AgentDraftCollectionsRepo.Default,
      AgentDraftLock.Default,
      AiAgentToolRepo.Default,
      KnowledgeSearch.Default,
      KnowledgeEmbeddings.Default,
      WorkspaceToolRepo.Default
    ]
  }
) {}
