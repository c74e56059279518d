/**
 * A flow as a Mermaid flowchart: shapes by node type, edge labels, one
 * subgraph per sub-flow. `%% parley:` comments (which Mermaid ignores) carry
 * each node's type and data, each edge's route and each sub-flow, so an import
 * gives the same graph back.
 */
import type { Flow } from "../assistants/Flow.js"
import type { FlowNode } from "../assistants/FlowNode.js"
import { edgeText, nodeText, routeOf } from "./NodeSummary.js"

const shapes: Record<FlowNode["type"], readonly [string, string]> = {
  start: ["([", "])"],
  end: ["([", "])"],
  message: ["[", "]"],
  question: ["[/", "/]"],
  "intent-router": ["{", "}"],
  condition: ["{", "}"],
  "set-variable": ["[\\", "\\]"],
  http: ["[[", "]]"],
  ai: ["{{", "}}"],
  handoff: [">", "]"],
  jump: ["((", "))"]
}

/** Mermaid label text: quoted, with its quotes and line breaks escaped. */
const quoted = (text: string) =>
  `"${
    text.replace(/&/g, "#amp;").replace(/"/g, "#quot;").replace(/</g, "#lt;").replace(/>/g, "#gt;").replace(
      /\n/g,
      "<br/>"
    )
  }"`

const json = (value: unknown) => JSON.stringify(value).replace(/\n/g, "\\n")

export const exportMermaid = (flow: Pick<Flow, "nodes" | "edges" | "subflows">): string => {
  const ref = new Map(flow.nodes.map((node, i) => [node.id, `n${i + 1}`]))
  const lines = ["flowchart TD"]
  const nodeLines = (node: FlowNode, indent: string) => {
    const [open, close] = shapes[node.type]
    const r = ref.get(node.id)!
    lines.push(`${indent}${r}${open}${quoted(nodeText(node))}${close}`)
    lines.push(
      `${indent}%% parley:node ${json({ ref: r, id: node.id, type: node.type, label: node.label, data: node.data })}`
    )
  }
  for (const node of flow.nodes.filter((n) => n.subflow === undefined)) nodeLines(node, "  ")
  for (const subflow of flow.subflows) {
    lines.push(`  subgraph sf${flow.subflows.indexOf(subflow) + 1} [${quoted(subflow.name)}]`)
    lines.push(`    %% parley:subflow ${json(subflow)}`)
    for (const node of flow.nodes.filter((n) => n.subflow === subflow.id)) nodeLines(node, "    ")
    lines.push("  end")
  }
  for (const edge of flow.edges) {
    const text = edgeText(edge)
    lines.push(`  ${ref.get(edge.source)} -->${text === "" ? "" : `|${quoted(text)}|`} ${ref.get(edge.target)}`)
    lines.push(`  %% parley:edge ${json({ id: edge.id, ...routeOf(edge), label: edge.label })}`)
  }
  return `${lines.join("\n")}\n`
}
