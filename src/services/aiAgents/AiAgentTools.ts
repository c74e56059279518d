/**
 * An agent's tools (`/ai-agents/{slug}/tools`): inline HTTP tools, shared
 * workspace tools by reference, and built-ins. A write checks the config as
 * a workspace tool is checked (`ToolDefinitionRules`; for a `workspace` tool,
 * the effective definition under the agent's overrides), that every secret it
 * names is in the vault, and records those names as the tool's secret
 * references, with the agent's revision bump and audit event, in one
 * transaction that has locked the agent's row (and the referenced workspace
 * tool's, so a delete of that tool cannot slip between the check and the
 * write). Deleting a tool removes it from the tasks that required it.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import { v7 as uuidv7 } from "uuid"
import type { AiAgent } from "../../domain/aiAgents/AiAgent.js"
import { effectiveDefinition, undeclaredFixedInput } from "../../domain/aiAgents/EffectiveTool.js"
import type { AiAgentToolId } from "../../domain/aiAgents/Ids.js"
import {
  type AiAgentTool,
  type AiAgentToolCreate,
  AiAgentToolInvalid,
  type AiAgentToolListParams,
  AiAgentToolNameTaken,
  AiAgentToolNotFound,
  type AiAgentToolPatch
} from "../../domain/aiAgents/Tool.js"
import type { AiAgentToolConfig } from "../../domain/aiAgents/ToolConfig.js"
import type { FieldProblem } from "../../domain/FieldProblem.js"
import type { Origin } from "../../domain/identity/Origin.js"
import type { Principal } from "../../domain/identity/Principal.js"
import { pageOf } from "../../domain/Pagination.js"
import type { Revision } from "../../domain/Revision.js"
import type { HttpToolDefinition } from "../../domain/workspace/HttpToolDefinition.js"
import type { SecretName } from "../../domain/workspace/Ids.js"
import type { ResourceRef } from "../../domain/workspace/ResourceRef.js"
import { SecretReferenceMissing } from "../../domain/workspace/Secret.js"
import { definitionProblems, secretNames } from "../../domain/workspace/ToolDefinitionRules.js"
import { AgentDraftCollectionsRepo } from "../../persistence/aiAgents/AgentDraftCollectionsRepo.js"
import { AiAgentTaskRepo } from "../../persistence/aiAgents/AiAgentTaskRepo.js"
import { AiAgentToolRepo } from "../../persistence/aiAgents/AiAgentToolRepo.js"
import { transaction } from "../../persistence/Transaction.js"
import { WorkspaceToolRepo } from "../../persistence/workspace/WorkspaceToolRepo.js"
import { SecretReferences } from "../workspace/SecretReferences.js"
import { SecretValues } from "../workspace/SecretValues.js"
import { definitionOf } from "../workspace/WorkspaceTools.js"
import { AgentDraftLock } from "./AgentDraftLock.js"
import { AgentItemAudit } from "./AgentItemAudit.js"

export const toolNotFound = (id: string) =>
  new AiAgentToolNotFound({ toolId: id, message: "No such tool on this agent" })
const nameTaken = (name: string) =>
  new AiAgentToolNameTaken({ name, message: "Another tool of this agent has this name" })
const invalid = (problems: ReadonlyArray<FieldProblem>) =>
  new AiAgentToolInvalid({
    message: problems.map((problem) => `${problem.field}: ${problem.message}`).join("; ").slice(0, 2000),
    problems
  })

/** The agent tool as a resource that references secrets (and that runs read them for). */
export const agentToolRef = (agent: Pick<AiAgent, "slug">, tool: Pick<AiAgentTool, "id" | "name">): ResourceRef => ({
  kind: "ai-agent-tool",
  id: tool.id,
  name: `${agent.slug}/${tool.name}`.slice(0, 200)
})

/** The HTTP definition of an inline `http` config. */
export const inlineDefinition = (config: AiAgentToolConfig & { readonly kind: "http" }): HttpToolDefinition =>
  definitionOf(config)

/** Problems of a definition, each field named under `prefix`. */
const prefixed = (prefix: string, problems: ReadonlyArray<FieldProblem>): ReadonlyArray<FieldProblem> =>
  problems.map((problem) => ({ ...problem, field: `${prefix}.${problem.field}` }))

export class AiAgentTools extends Effect.Service<AiAgentTools>()("parley/services/aiAgents/AiAgentTools", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const drafts = yield* AgentDraftLock
    const repo = yield* AiAgentToolRepo
    const collections = yield* AgentDraftCollectionsRepo
    const tasks = yield* AiAgentTaskRepo
    const workspaceTools = yield* WorkspaceToolRepo
    const references = yield* SecretReferences
    const secrets = yield* SecretValues
    const audit = yield* AgentItemAudit
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    /**
     * The config's rules across fields, then its secrets' presence in the
     * vault; the secret names it reads. A referenced workspace tool is locked
     * until the transaction ends.
     */
    const check = Effect.fn("AiAgentTools.check")(function*(
      principal: Principal,
      agent: AiAgent,
      tool: { readonly id?: AiAgentToolId; readonly description: string | null; readonly config: AiAgentToolConfig }
    ) {
      const { config } = tool
      const problems: Array<FieldProblem> = []
      let names: ReadonlyArray<SecretName> = []
      if (config.kind === "http") {
        if (tool.description === null) {
          problems.push({ field: "description", message: "an http tool needs a description for the model" })
        }
        const definition = inlineDefinition(config)
        problems.push(...prefixed("config", definitionProblems(definition)))
        names = secretNames(definition)
      } else if (config.kind === "workspace") {
        const shared = yield* workspaceTools.lock(principal.workspaceId, config.workspaceToolId)
        if (shared === undefined) {
          problems.push({ field: "config.workspaceToolId", message: "no workspace tool with this id" })
        } else {
          for (const name of undeclaredFixedInput(shared.inputSchema, config.overrides)) {
            problems.push({
              field: `config.overrides.fixedInput.${name}`,
              message: "the workspace tool's input schema has no such property"
            })
          }
          const definition = effectiveDefinition(definitionOf(shared), config.overrides)
          problems.push(...prefixed("config.overrides", definitionProblems(definition)))
          names = secretNames({
            ...definition,
            headers: config.overrides.headers ?? {},
            query: config.overrides.query ?? {}
          })
        }
      } else {
        if (config.builtin === "knowledge_search" && config.settings.knowledgeIds.length > 0) {
          const known = new Set<string>(yield* collections.knowledgeIds(agent.id))
          const unknown = config.settings.knowledgeIds.filter((id) => !known.has(id))
          if (unknown.length > 0) {
            problems.push({
              field: "config.settings.knowledgeIds",
              message: `not knowledge documents of this agent: ${unknown.join(", ")}`
            })
          }
        }
        const all = yield* repo.page(agent.id, { kind: "builtin" }, 100, 0)
        const twin = all.items.find((other) =>
          other.id !== tool.id && other.config.kind === "builtin" && other.config.builtin === config.builtin
        )
        if (twin !== undefined) {
          problems.push({ field: "config.builtin", message: `the agent already has the ${config.builtin} built-in` })
        }
      }
      if (problems.length > 0) return yield* invalid(problems)
      const missing = yield* secrets.missing(principal.workspaceId, names)
      if (missing.length > 0) {
        return yield* new SecretReferenceMissing({
          names: missing,
          message: `The workspace vault holds no secret named ${missing.join(", ")}`
        })
      }
      return names
    })

    const list = Effect.fn("AiAgentTools.list")(
      function*(principal: Principal, slug: string, params: typeof AiAgentToolListParams.Type) {
        const agent = yield* drafts.find(principal, slug)
        const { limit, offset } = pageOf(params)
        const { items, total } = yield* repo.page(
          agent.id,
          { kind: params.kind, enabled: params.enabled },
          limit,
          offset
        )
        return { items, total, limit, offset }
      }
    )

    const get = Effect.fn("AiAgentTools.get")(function*(principal: Principal, slug: string, id: AiAgentToolId) {
      const agent = yield* drafts.find(principal, slug)
      return (yield* repo.find(agent.id, id)) ?? (yield* toolNotFound(id))
    })

    const create = Effect.fn("AiAgentTools.create")(function*(
      principal: Principal,
      slug: string,
      input: typeof AiAgentToolCreate.Type,
      ifMatch: Revision | undefined,
      origin: Origin
    ) {
      const agent = yield* drafts.lock(principal, slug, ifMatch)
      if (yield* repo.nameTaken(agent.id, input.name)) return yield* nameTaken(input.name)
      const names = yield* check(principal, agent, input)
      const tool = yield* repo.insert(uuidv7() as AiAgentToolId, agent.workspaceId, agent.id, {
        name: input.name,
        description: input.description,
        config: input.config,
        enabled: input.enabled,
        at: yield* now
      })
      yield* references.replace(agent.workspaceId, agentToolRef(agent, tool), names)
      yield* drafts.bump(agent)
      yield* audit.item(principal, origin, agent, "ai-agent.item.created", "tools", tool.id, Object.keys(input))
      return tool
    }, transactional)

    const update = Effect.fn("AiAgentTools.update")(function*(
      principal: Principal,
      slug: string,
      id: AiAgentToolId,
      patch: typeof AiAgentToolPatch.Type,
      ifMatch: Revision | undefined,
      origin: Origin
    ) {
      const agent = yield* drafts.lock(principal, slug, ifMatch)
      const current = (yield* repo.find(agent.id, id)) ?? (yield* toolNotFound(id))
      const name = patch.name ?? current.name
      if (name !== current.name && (yield* repo.nameTaken(agent.id, name, id))) return yield* nameTaken(name)
      const write = {
        name,
        description: patch.description === undefined ? current.description : patch.description,
        config: patch.config ?? current.config,
        enabled: patch.enabled ?? current.enabled
      }
      const names = yield* check(principal, agent, { id, ...write })
      const tool = yield* repo.update(agent.id, id, { ...write, at: yield* now })
      yield* references.replace(agent.workspaceId, agentToolRef(agent, tool), names)
      yield* drafts.bump(agent)
      const changed = Object.entries(patch).filter(([, value]) => value !== undefined).map(([field]) => field)
      yield* audit.item(principal, origin, agent, "ai-agent.item.updated", "tools", id, changed)
      return tool
    }, transactional)

    const remove = Effect.fn("AiAgentTools.delete")(function*(
      principal: Principal,
      slug: string,
      id: AiAgentToolId,
      ifMatch: Revision | undefined,
      origin: Origin
    ) {
      const agent = yield* drafts.lock(principal, slug, ifMatch)
      const current = (yield* repo.find(agent.id, id)) ?? (yield* toolNotFound(id))
      yield* repo.delete(agent.id, id)
      yield* references.replace(agent.workspaceId, agentToolRef(agent, current), [])
      const changedTasks = yield* tasks.dropRequiredTool(agent.id, id, yield* now)
      yield* drafts.bump(agent)
      yield* audit.item(principal, origin, agent, "ai-agent.item.deleted", "tools", id, [])
      yield* Effect.forEach(
        changedTasks,
        (taskId) => audit.item(principal, origin, agent, "ai-agent.item.updated", "tasks", taskId, ["requiredToolIds"])
      )
    }, transactional)

    return { list, get, create, update, delete: remove } as const
  }),
  dependencies: [
    AgentDraftCollectionsRepo.Default,
    AgentDraftLock.Default,
    AgentItemAudit.Default,
    AiAgentToolRepo.Default,
    AiAgentTaskRepo.Default,
    WorkspaceToolRepo.Default
  ]
}) {}
