/**
 * What is wrong with the edges out of each node: an outcome with no edge
 * (`dead-end`: the engine ends the conversation there), a missing fallback
 * (the `*-without-fallback` warnings), an edge no outcome takes
 * (`dangling-edge`), a second edge for one outcome (`duplicate-route`: only
 * the first is ever followed), and a jump, edge or sub-flow entry naming
 * nothing (`broken-reference`). The start node's own problems are
 * `StartFindings`'.
 */
import type { FlowEdge } from "../FlowEdge.js"
import type { Finding } from "../FlowFinding.js"
import type { FlowNode } from "../FlowNode.js"
import { error, listed, warning } from "./Findings.js"
import type { FlowIndex } from "./FlowIndex.js"
import { edgeFor, outcomesOf, routeKey, takes } from "./Outcomes.js"

const fallbackCode = {
  question: "question-without-fallback",
  "intent-router": "router-without-fallback",
  condition: "condition-without-fallback"
} as const

const fallbackMeaning = {
  question: "after its last invalid answer",
  "intent-router": "when a message matches none of its intents",
  condition: "when none of its cases holds"
} as const

const missingOutcomes = (index: FlowIndex, node: FlowNode): ReadonlyArray<Finding> => {
  const live = index.live(node.id)
  const outcomes = outcomesOf(node)
  const findings: Array<Finding> = []
  const missing = outcomes.filter((outcome) => !outcome.fallback && edgeFor(outcome, live) === undefined)
  if (missing.length > 0 && node.type !== "start") {
    findings.push(
      error(
        "dead-end",
        `Node ${node.id} has no edge for ${listed(missing.map((outcome) => outcome.name))}: a conversation taking ${
          missing.length === 1 ? "it" : "one of them"
        } ends there`,
        { nodeIds: [node.id], repairable: true }
      )
    )
  }
  if (
    (node.type === "question" || node.type === "intent-router" || node.type === "condition") &&
    !live.has("fallback")
  ) {
    findings.push(
      warning(
        fallbackCode[node.type],
        `Node ${node.id} has no fallback edge: the conversation ends there ${fallbackMeaning[node.type]}`,
        { nodeIds: [node.id], repairable: true }
      )
    )
  }
  return findings
}

const edgeProblems = (index: FlowIndex, node: FlowNode, edges: ReadonlyArray<FlowEdge>): ReadonlyArray<Finding> => {
  const findings: Array<Finding> = []
  const first = new Map<string, FlowEdge>()
  for (const edge of edges) {
    if (!takes(node, edge)) {
      findings.push(
        error(
          "dangling-edge",
          `Edge ${edge.id} leaves node ${node.id} on ${routeKey(edge)}, an outcome a ${node.type} node ${
            node.type === "handoff" || node.type === "jump" || node.type === "end"
              ? "never has"
              : "with this data never takes"
          }`,
          { nodeIds: [node.id], edgeIds: [edge.id], repairable: true }
        )
      )
      continue
    }
    const key = routeKey(edge)
    const winner = first.get(key)
    if (winner !== undefined) {
      findings.push(
        error(
          "duplicate-route",
          `Edges ${winner.id} and ${edge.id} both route ${key} out of node ${node.id}; only ${winner.id} is followed`,
          { nodeIds: [node.id], edgeIds: [winner.id, edge.id], repairable: true }
        )
      )
      continue
    }
    first.set(key, edge)
    if (node.type !== "start" && index.node(edge.target) === undefined) {
      findings.push(
        error(
          "broken-reference",
          `Edge ${edge.id} out of node ${node.id} leads to ${edge.target}, which is not a node`,
          {
            nodeIds: [node.id],
            edgeIds: [edge.id]
          }
        )
      )
    }
  }
  return findings
}

const jumpProblems = (index: FlowIndex, node: FlowNode): ReadonlyArray<Finding> => {
  if (node.type !== "jump") return []
  const target = node.data.target
  const destination = index.jumpTarget(node)
  if (destination !== undefined && index.node(destination) !== undefined) return []
  const what = target.kind === "node"
    ? `node ${target.nodeId}, which does not exist`
    : destination === undefined
    ? `sub-flow ${target.subflowId}, which the flow does not declare`
    : `sub-flow ${target.subflowId}, whose entry node ${destination} does not exist`
  return [error("broken-reference", `Jump ${node.id} goes to ${what}`, { nodeIds: [node.id] })]
}

/** Route findings of every node, in the flow's order of nodes and edges; then sub-flows whose entry is missing. */
export const routeFindings = (index: FlowIndex): ReadonlyArray<Finding> => {
  const bySource = new Map<string, Array<FlowEdge>>()
  for (const edge of index.graph.edges) {
    const list = bySource.get(edge.source)
    if (list === undefined) bySource.set(edge.source, [edge])
    else list.push(edge)
  }
  const findings: Array<Finding> = []
  const seen = new Set<string>()
  for (const node of index.graph.nodes) {
    if (seen.has(node.id)) continue
    seen.add(node.id)
    findings.push(
      ...missingOutcomes(index, node),
      ...edgeProblems(index, node, bySource.get(node.id) ?? []),
      ...jumpProblems(index, node)
    )
  }
  for (const subflow of index.graph.subflows) {
    if (index.node(subflow.entryNodeId) === undefined) {
      findings.push(
        error(
          "broken-reference",
          `Sub-flow ${subflow.id} enters at node ${subflow.entryNodeId}, which does not exist`,
          {}
        )
      )
    }
  }
  return findings
}
