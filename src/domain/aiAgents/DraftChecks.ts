/**
 * What keeps a draft from being published, found before any eval: a pure
 * check of the snapshot against the facts the service looked up (the vault's
 * secret names, the workspace's tools, the LLM providers with a connection).
 * Every problem is listed, so a publish refused once can be fixed in one go.
 */
import type { SecretName } from "../workspace/Ids.js"
import { secretNames } from "../workspace/ToolDefinitionRules.js"
import type { AiAgentSnapshot } from "./AiAgentSnapshot.js"
import type { DraftProblem as DraftProblemSchema } from "./Publish.js"

type DraftProblem = typeof DraftProblemSchema.Type

/** What the checks need to know beyond the snapshot. */
export interface DraftFacts {
  /** The names, among those the draft's tools use, that the workspace vault holds. */
  readonly existingSecrets: ReadonlySet<string>
  /** The ids, among those the draft's tools reference, of existing workspace tools. */
  readonly existingWorkspaceTools: ReadonlySet<string>
  /** The providers the workspace can reach: those of its LLM in force and its fallback. */
  readonly connectedProviders: ReadonlySet<string>
}

type Tool = AiAgentSnapshot["tools"][number]

/** The vault secrets a tool names: an inline tool's headers and query, a workspace tool's overrides. */
export const toolSecretNames = (tool: Tool): ReadonlyArray<SecretName> => {
  switch (tool.config.kind) {
    case "http":
      return secretNames(tool.config)
    case "workspace":
      return [
        ...new Set(
          [...Object.values(tool.config.overrides.headers ?? {}), ...Object.values(tool.config.overrides.query ?? {})]
            .flatMap((value) => "secret" in value ? [value.secret] : [])
        )
      ]
    case "builtin":
      return []
  }
}

/** The workspace tools the draft's tools reference. */
export const workspaceToolIds = (snapshot: AiAgentSnapshot): ReadonlyArray<string> =>
  snapshot.tools.flatMap((tool) => tool.config.kind === "workspace" ? [tool.config.workspaceToolId] : [])

/** Every secret the draft's tools name. */
export const draftSecretNames = (snapshot: AiAgentSnapshot): ReadonlyArray<SecretName> => [
  ...new Set(snapshot.tools.flatMap(toolSecretNames))
]

/** Every problem that blocks publishing the draft; empty when it may be published. */
export const draftProblems = (snapshot: AiAgentSnapshot, facts: DraftFacts): ReadonlyArray<DraftProblem> => {
  const problems: Array<DraftProblem> = []
  if (snapshot.instructions.trim().length === 0) {
    problems.push({
      code: "no-instructions",
      message: "The agent has no instructions: write what it is for and how it should behave",
      path: "instructions"
    })
  }
  for (const tool of snapshot.tools) {
    for (const name of toolSecretNames(tool)) {
      if (!facts.existingSecrets.has(name)) {
        problems.push({
          code: "missing-secret",
          message: `The tool ${tool.name} uses the secret ${name}, which the workspace vault does not hold`,
          path: `tools/${tool.id}`
        })
      }
    }
    if (tool.config.kind === "workspace" && !facts.existingWorkspaceTools.has(tool.config.workspaceToolId)) {
      problems.push({
        code: "missing-workspace-tool",
        message: `The tool ${tool.name} uses a workspace tool that no longer exists`,
        path: `tools/${tool.id}`
      })
    }
  }
  const choice = snapshot.modelSettings.toolChoice
  if (typeof choice === "object" && !snapshot.tools.some((tool) => tool.enabled && tool.name === choice.tool)) {
    problems.push({
      code: "unknown-tool-choice",
      message: `The tool choice names ${choice.tool}, which is not an enabled tool of the agent`,
      path: "modelSettings.toolChoice"
    })
  }
  const model = snapshot.modelSettings.model
  if (model.source === "explicit" && !facts.connectedProviders.has(model.provider)) {
    problems.push({
      code: "model-unresolvable",
      message: `The model ${model.provider}/${model.model} needs a ${model.provider} connection, ` +
        "and the workspace's LLM settings have none",
      path: "modelSettings.model"
    })
  }
  return problems
}
