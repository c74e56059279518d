/**
 * Positions for nodes whose source gave none (Mermaid, Rasa, Dialogflow): a
 * layered layout, each node one row below the first node that reaches it,
 * each sub-flow in its own column band.
 */
import type { FlowEdge } from "../assistants/FlowEdge.js"
import type { FlowNode } from "../assistants/FlowNode.js"

const ROW = 140
const COLUMN = 240

/** The nodes, those in `unplaced` given a position; the others as they were. */
export const layoutPositions = (
  nodes: ReadonlyArray<FlowNode>,
  edges: ReadonlyArray<FlowEdge>,
  unplaced: ReadonlySet<string>
): ReadonlyArray<FlowNode> => {
  if (unplaced.size === 0) return nodes
  const targets = new Map<string, Array<string>>()
  const incoming = new Set<string>()
  for (const edge of edges) {
    targets.set(edge.source, [...(targets.get(edge.source) ?? []), edge.target])
    incoming.add(edge.target)
  }
  const depth = new Map<string, number>()
  const roots = [
    ...nodes.filter((node) => node.type === "start"),
    ...nodes.filter((node) => node.type !== "start" && !incoming.has(node.id)),
    ...nodes
  ]
  for (const root of roots) {
    if (depth.has(root.id)) continue
    depth.set(root.id, 0)
    const queue: Array<string> = [root.id]
    while (queue.length > 0) {
      const current = queue.shift()!
      for (const next of targets.get(current) ?? []) {
        if (!depth.has(next)) {
          depth.set(next, depth.get(current)! + 1)
          queue.push(next)
        }
      }
    }
  }
  const bands = [...new Set(nodes.map((node) => node.subflow ?? ""))]
  const usedInRow = new Map<string, number>()
  return nodes.map((node) => {
    if (!unplaced.has(node.id)) return node
    const band = bands.indexOf(node.subflow ?? "")
    const row = Math.min(depth.get(node.id) ?? 0, 5000)
    const key = `${band}:${row}`
    const column = usedInRow.get(key) ?? 0
    usedInRow.set(key, column + 1)
    return {
      ...node,
      position: { x: Math.min(band * COLUMN * 8 + column * COLUMN, 999_000), y: Math.min(row * ROW, 999_000) }
    }
  })
}
