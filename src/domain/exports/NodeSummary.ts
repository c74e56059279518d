/** The text a diagram shows for a node and an edge when they carry no label of their own. */
import type { FlowEdge } from "../assistants/FlowEdge.js"
import type { FlowNode } from "../assistants/FlowNode.js"
import { excerpt } from "../Excerpt.js"

const short = (text: string) => excerpt(text, 200)

export const nodeText = (node: FlowNode): string => {
  if (node.label !== undefined) return node.label
  switch (node.type) {
    case "start":
      return "Start"
    case "message":
      return short(node.data.text)
    case "question":
      return short(node.data.prompt)
    case "intent-router":
      return `Intent: ${node.data.intents.join(", ")}`
    case "condition":
      return node.data.cases.map((c) => c.expression).join(" / ")
    case "set-variable":
      return `Set ${node.data.variable}`
    case "http":
      return `Call tool → ${node.data.resultVariable}`
    case "ai":
      return short(node.data.prompt)
    case "handoff":
      return "Hand off"
    case "jump":
      return node.data.target.kind === "node"
        ? `Go to ${node.data.target.nodeId}`
        : `Go to ${node.data.target.subflowId}`
    case "end":
      return node.data.outcome === undefined ? "End" : `End (${node.data.outcome})`
  }
}

export const edgeText = (edge: FlowEdge): string => {
  if (edge.label !== undefined) return edge.label
  switch (edge.kind) {
    case "intent":
      return edge.intent
    case "case":
      return edge.case
    case "option":
      return edge.option
    case "next":
      return ""
    default:
      return edge.kind
  }
}

/** An edge's route without its id, endpoints or label: what the metadata of an export carries. */
export const routeOf = (edge: FlowEdge): Record<string, string> => {
  const { id: _id, source: _s, target: _t, label: _l, ...route } = edge
  return route as Record<string, string>
}
