import type { SecretName, WorkspaceToolId } from "../../workspace/Ids.js"

/** What a workspace tool that an `http` node calls needs: the vault secrets it names. */
export interface ReferencedTool {
  readonly name: string
  /** The vault secrets the tool's definition refers to by name. */
  readonly secrets: ReadonlyArray<SecretName>
}

/** What an `ai-agent` node calls: an agent of the workspace, and whether it has a live version. */
export interface ReferencedAgent {
  readonly published: boolean
}

/**
 * What validate-publish knows of the workspace besides the graph, read by the
 * service before it calls the pure validator: the workspace tools, the vault's
 * secret names, the AI agents by slug (a `Slug`), and whether a language model is set up
 * for `llm` nodes without their own model.
 */
export interface WorkflowReferences {
  readonly tools: ReadonlyMap<WorkspaceToolId, ReferencedTool>
  readonly secrets: ReadonlySet<SecretName>
  readonly agents: ReadonlyMap<string, ReferencedAgent>
  readonly llmConfigured: boolean
}
