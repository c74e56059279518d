/**
 * What is wrong inside nodes and intents rather than between them: an
 * expression JSONata cannot compile, or one with a regex literal Parley
 * cannot run (`invalid-expression`: at run time a case would always be
 * false, a set-variable would set `null`); a question's or slot's pattern
 * Parley cannot run (`invalid-pattern`: a syntax error, a feature with no
 * linear-time matching such as a backreference or a lookahead, or a pattern
 * too large; see `UserPattern`), so no answer or slot could ever match (a
 * slot's finding names the routers that list its intent, where the slot is
 * filled); and node types whose provider is not built yet
 * (`node-unavailable`: http and ai fail at once, and a handoff has no one to
 * hand to).
 */
import { Either } from "effect"
import { patternRefusal } from "../../patterns/UserPattern.js"
import { compileExpression } from "../../runtime/engine/Expressions.js"
import type { Finding } from "../FlowFinding.js"
import type { FlowNode } from "../FlowNode.js"
import type { AnalysisIntent } from "./AnalysisIntent.js"
import { error } from "./Findings.js"

const expressionsOf = (node: FlowNode): ReadonlyArray<readonly [where: string, source: string]> => {
  switch (node.type) {
    case "condition":
      return node.data.cases.map((c) => [`case ${c.key}`, c.expression] as const)
    case "set-variable":
      return "expression" in node.data ? [["its expression", node.data.expression] as const] : []
    case "http":
      return Object.entries(node.data.input).map(([name, source]) => [`argument ${name}`, source] as const)
    default:
      return []
  }
}

const UNAVAILABLE = {
  http: "calls a workspace tool",
  ai: "asks the workspace's language model",
  handoff: "hands the conversation to a person"
} as const

/** Content findings: per node in the flow's order, then per intent's slot. */
export const contentFindings = (
  nodes: ReadonlyArray<FlowNode>,
  intents: ReadonlyArray<AnalysisIntent>
): ReadonlyArray<Finding> => {
  const findings: Array<Finding> = []
  for (const node of nodes) {
    for (const [where, source] of expressionsOf(node)) {
      const compiled = compileExpression(source).compiled
      if (Either.isLeft(compiled)) {
        findings.push(
          error(
            "invalid-expression",
            `The expression of node ${node.id}'s ${where} does not compile: ${compiled.left.message}`,
            {
              nodeIds: [node.id]
            }
          )
        )
      }
    }
    if (node.type === "question" && node.data.validation.kind === "regex") {
      const refusal = patternRefusal(node.data.validation.pattern)
      if (refusal !== undefined) {
        findings.push(
          error("invalid-pattern", `Question ${node.id}'s pattern cannot be used: ${refusal}`, {
            nodeIds: [node.id]
          })
        )
      }
    }
    if (node.type === "http" || node.type === "ai" || node.type === "handoff") {
      findings.push(
        error(
          "node-unavailable",
          `Node ${node.id} ${
            UNAVAILABLE[node.type]
          }, which is not available yet: a ${node.type} node cannot be deployed`,
          { nodeIds: [node.id] }
        )
      )
    }
  }
  for (const intent of intents) {
    for (const slot of intent.slots) {
      if (slot.entity.kind !== "regex") continue
      const refusal = patternRefusal(slot.entity.pattern)
      if (refusal !== undefined) {
        findings.push(
          error(
            "invalid-pattern",
            `The slot ${slot.name} of the intent ${intent.name} has a pattern that cannot be used: ${refusal}`,
            {
              nodeIds: nodes.flatMap((node) =>
                node.type === "intent-router" && node.data.intents.includes(intent.name) ? [node.id] : []
              ),
              intents: [intent.name]
            }
          )
        )
      }
    }
  }
  return findings
}
