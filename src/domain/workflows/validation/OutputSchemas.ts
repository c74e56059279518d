/**
 * `invalid-output-schema`, an error: an llm node's `outputSchema` must be a
 * JSON Schema Parley can enforce on the model's answer, which is the same
 * subset a workspace tool's input schema may use (`ToolInputSchemaRules`),
 * each broken rule at its own dotted path under `data.outputSchema`.
 */
import { schemaProblems } from "../../workspace/ToolInputSchemaRules.js"
import type { PublishProblem } from "../PublishProblem.js"
import type { WorkflowNode } from "../WorkflowNode.js"
import { clipped, error } from "./Problems.js"

/** Output schema problems, node by node in graph order. */
export const outputSchemaProblems = (nodes: ReadonlyArray<WorkflowNode>): ReadonlyArray<PublishProblem> =>
  nodes.flatMap((node) =>
    node.type !== "llm" || node.data.outputSchema === undefined
      ? []
      : schemaProblems(node.data.outputSchema, "data.outputSchema").map((problem) =>
        error(
          "invalid-output-schema",
          `The output schema of llm node ${node.id} cannot be used: ${clipped(problem.message)} (at ${
            clipped(problem.field, 120)
          })`,
          { nodeId: node.id, field: problem.field }
        )
      )
  )
