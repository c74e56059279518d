/**
 * validate-publish's view of the workspace: what a graph names outside
 * itself, read from the database, handed with the graph to the pure
 * validator (`validateWorkflow`). Only what the graph names is read: the
 * workspace tools of its `http` nodes (with the vault secrets each tool's
 * headers and query name), the AI agents of its `ai-agent` nodes (whether
 * each has a live version), the vault names among those secrets, and whether
 * a language model is usable for `llm` nodes without their own model.
 *
 * "Usable" is the rule the AI agents and the connection settings apply: the
 * LLM in force (the workspace's, the server's `PARLEY_LLM_*`, or the offline
 * default) or its fallback breaks none of the connection's rules, its API key
 * counted only when the vault (or the environment) really holds it.
 */
import { Effect } from "effect"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import { connectionProblems } from "../../domain/settings/LlmConnection.js"
import { graphReferences } from "../../domain/workflows/GraphReferences.js"
import { PublishCheck, type PublishProblem } from "../../domain/workflows/PublishProblem.js"
import { validateWorkflow } from "../../domain/workflows/validation/ValidateWorkflow.js"
import type { ReferencedTool, WorkflowReferences } from "../../domain/workflows/validation/WorkflowReferences.js"
import type { Workflow } from "../../domain/workflows/Workflow.js"
import type { WorkflowGraph } from "../../domain/workflows/WorkflowGraph.js"
import type { SecretName, WorkspaceToolId } from "../../domain/workspace/Ids.js"
import { secretNames } from "../../domain/workspace/ToolDefinitionRules.js"
import { AiAgentRepo } from "../../persistence/aiAgents/AiAgentRepo.js"
import { WorkspaceToolRepo } from "../../persistence/workspace/WorkspaceToolRepo.js"
import { LlmInForce, type LlmInForceEntry } from "../settings/LlmInForce.js"
import { SecretValues } from "../workspace/SecretValues.js"

/** The check of a draft at its revision: every problem, counted by severity. */
export const publishCheck = (workflow: Workflow, problems: ReadonlyArray<PublishProblem>): PublishCheck => {
  const errors = problems.filter((problem) => problem.severity === "error").length
  return PublishCheck.make({
    workflowId: workflow.id,
    revision: workflow.revision,
    publishable: errors === 0,
    errors,
    warnings: problems.length - errors,
    problems
  })
}

export class WorkflowChecks extends Effect.Service<WorkflowChecks>()("parley/services/workflows/WorkflowChecks", {
  dependencies: [WorkspaceToolRepo.Default, AiAgentRepo.Default],
  effect: Effect.gen(function*() {
    const tools = yield* WorkspaceToolRepo
    const agents = yield* AiAgentRepo
    const vault = yield* SecretValues
    const llm = yield* LlmInForce

    /** What the validator knows of the workspace beside this graph. */
    const references = Effect.fn("WorkflowChecks.references")(
      function*(workspaceId: WorkspaceId, graph: WorkflowGraph) {
        const { agentSlugs, toolIds } = graphReferences(graph)
        const [found, published, inForce] = yield* Effect.all([
          tools.findMany(workspaceId, toolIds),
          agents.publishedBySlugs(workspaceId, agentSlugs),
          llm.resolve(workspaceId)
        ])
        const entries = [inForce.primary, inForce.fallback].flatMap((entry) => entry === null ? [] : [entry])
        const named: ReadonlyArray<SecretName> = [
          ...new Set([
            ...found.flatMap((tool) => secretNames(tool)),
            ...entries.flatMap((entry) => entry.key.kind === "vault" ? [entry.key.name] : [])
          ])
        ]
        const missing = new Set(named.length === 0 ? [] : yield* vault.missing(workspaceId, named))
        const usable = (entry: LlmInForceEntry) => {
          const hasKey = entry.key.kind === "environment" ||
            (entry.key.kind === "vault" && !missing.has(entry.key.name))
          return connectionProblems(entry.connection, hasKey).length === 0
        }
        return {
          tools: new Map<WorkspaceToolId, ReferencedTool>(
            found.map((tool) => [tool.id, { name: tool.name, secrets: secretNames(tool) }])
          ),
          secrets: new Set(named.filter((name) => !missing.has(name))),
          agents: new Map([...published].map(([slug, isLive]) => [slug, { published: isLive }])),
          llmConfigured: entries.some(usable)
        } satisfies WorkflowReferences
      }
    )

    /** Every problem of the workflow's draft graph, as validate-publish reports it. */
    const check = Effect.fn("WorkflowChecks.check")(function*(workflow: Workflow) {
      const problems = validateWorkflow(workflow.graph, yield* references(workflow.workspaceId, workflow.graph))
      return publishCheck(workflow, problems)
    })

    return { references, check } as const
  })
}) {}
