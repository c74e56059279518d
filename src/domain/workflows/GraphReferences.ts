import type { WorkspaceToolId } from "../workspace/Ids.js"
import type { WorkflowGraph } from "./WorkflowGraph.js"

/** What a graph's nodes name outside it: the workspace tools of its `http` nodes and the agents of its `ai-agent` nodes. */
export interface GraphReferences {
  readonly toolIds: ReadonlyArray<WorkspaceToolId>
  /** The slugs of the AI agents called. */
  readonly agentSlugs: ReadonlyArray<string>
}

/** The tools and agents a graph names, each once, in the order of its nodes. */
export const graphReferences = (graph: WorkflowGraph): GraphReferences => ({
  toolIds: [...new Set(graph.nodes.flatMap((node) => node.type === "http" ? [node.data.toolId] : []))],
  agentSlugs: [...new Set(graph.nodes.flatMap((node) => node.type === "ai-agent" ? [node.data.agentSlug] : []))]
})
