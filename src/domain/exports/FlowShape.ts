/**
 * A flow's structure without its ids and layout: each node by its type,
 * label, data and sub-flow (by name), each edge by its endpoints (as such
 * nodes), route and label, each sub-flow by its name and entry. Two flows
 * with equal shapes are the same graph up to ids and layout, which is what an
 * export followed by an import must give back.
 */
import type { Flow } from "../assistants/Flow.js"
import { canonicalJson } from "../CanonicalJson.js"
import { routeOf } from "./NodeSummary.js"

export interface FlowShape {
  readonly nodes: ReadonlyArray<string>
  readonly edges: ReadonlyArray<string>
  readonly subflows: ReadonlyArray<string>
}

export const flowShape = (flow: Pick<Flow, "nodes" | "edges" | "subflows">): FlowShape => {
  const subflowName = new Map(flow.subflows.map((subflow) => [subflow.id as string, subflow.name]))
  const plain = new Map(
    flow.nodes.map((node) => [
      node.id as string,
      canonicalJson({
        type: node.type,
        label: node.label ?? null,
        subflow: node.subflow === undefined ? null : subflowName.get(node.subflow) ?? null,
        data: node.data
      })
    ])
  )
  const key = new Map(flow.nodes.map((node) => {
    if (node.type !== "jump") return [node.id as string, plain.get(node.id)!]
    const target = node.data.target.kind === "node"
      ? { node: plain.get(node.data.target.nodeId) ?? null }
      : { subflow: subflowName.get(node.data.target.subflowId) ?? null }
    return [node.id as string, canonicalJson({ type: "jump", label: node.label ?? null, target })]
  }))
  return {
    nodes: [...key.values()].sort(),
    edges: flow.edges.map((edge) =>
      canonicalJson({
        from: key.get(edge.source) ?? null,
        to: key.get(edge.target) ?? null,
        route: routeOf(edge),
        label: edge.label ?? null
      })
    ).sort(),
    subflows: flow.subflows.map((subflow) =>
      canonicalJson({ name: subflow.name, entry: key.get(subflow.entryNodeId) ?? null })
    ).sort()
  }
}
