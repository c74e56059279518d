/**
 * What a node calls outside the graph, checked against the workspace
 * (`WorkflowReferences`). All are errors, because the call would fail on
 * every run that reaches the node: a tool that does not exist
 * (`missing-tool`), a secret the tool names that the vault lacks
 * (`missing-secret`, one per secret), an agent that does not exist
 * (`missing-agent`) or has no live version (`agent-not-published`: only a
 * published agent can be called), and an llm node without its own model
 * when the workspace has no language model set up (`llm-not-configured`).
 */
import type { PublishProblem } from "../PublishProblem.js"
import type { WorkflowNode } from "../WorkflowNode.js"
import { error, quoted } from "./Problems.js"
import type { WorkflowReferences } from "./WorkflowReferences.js"

const nodeReferences = (node: WorkflowNode, references: WorkflowReferences): ReadonlyArray<PublishProblem> => {
  switch (node.type) {
    case "http": {
      const place = { nodeId: node.id, field: "data.toolId" }
      const tool = references.tools.get(node.data.toolId)
      if (tool === undefined) {
        return [
          error(
            "missing-tool",
            `Http node ${node.id} calls tool ${node.data.toolId}, which is not a tool of the workspace`,
            place
          )
        ]
      }
      return tool.secrets.filter((secret) => !references.secrets.has(secret)).map((secret) =>
        error(
          "missing-secret",
          `Http node ${node.id} calls tool ${
            quoted(tool.name)
          }, which uses the secret ${secret}, missing from the vault`,
          place
        )
      )
    }
    case "ai-agent": {
      const place = { nodeId: node.id, field: "data.agentSlug" }
      const agent = references.agents.get(node.data.agentSlug)
      if (agent === undefined) {
        return [
          error(
            "missing-agent",
            `Node ${node.id} calls agent ${node.data.agentSlug}, which is not an agent of the workspace`,
            place
          )
        ]
      }
      return agent.published ? [] : [
        error(
          "agent-not-published",
          `Node ${node.id} calls agent ${node.data.agentSlug}, which has no published version to call`,
          place
        )
      ]
    }
    case "llm":
      return node.data.model !== undefined || references.llmConfigured ? [] : [
        error(
          "llm-not-configured",
          `Llm node ${node.id} has no model of its own and the workspace has no language model set up: choose a model or set one up`,
          { nodeId: node.id, field: "data.model" }
        )
      ]
    default:
      return []
  }
}

/** Reference problems, node by node in graph order. */
export const referenceProblems = (
  nodes: ReadonlyArray<WorkflowNode>,
  references: WorkflowReferences
): ReadonlyArray<PublishProblem> => nodes.flatMap((node) => nodeReferences(node, references))
