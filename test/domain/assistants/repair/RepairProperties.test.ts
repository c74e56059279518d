/**
 * Repair over many seeded random drafts: after repairing every node, no
 * repairable finding is left on any node (bar an undefined intent with
 * nothing to re-point to, which is not repairable), every change keeps the
 * graph well-formed, and a second pass changes nothing.
 */
import { describe, expect, it } from "@effect/vitest"
import { analyzeFlow } from "../../../../src/domain/assistants/analysis/AnalyzeFlow.js"
import type { EdgeRoute, FlowEdge } from "../../../../src/domain/assistants/FlowEdge.js"
import type { FlowNode } from "../../../../src/domain/assistants/FlowNode.js"
import { type FlowGraph, flowStructureProblems } from "../../../../src/domain/assistants/FlowStructure.js"
import { repairNode } from "../../../../src/domain/assistants/repair/RepairNode.js"
import { condition, edge, end, jumpTo, message, question, router, setValue, start } from "../../runtime/FlowFixtures.js"

const intents = ["refund", "greet", "bye", "order_status"].map((name) => ({
  name,
  utterances: [`${name} one`, `${name} two`, `${name} three`],
  slots: []
}))

/** A small seeded generator (mulberry32). */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const draft = (seed: number): FlowGraph => {
  const next = random(seed)
  const pick = <A>(items: ReadonlyArray<A>): A => items[Math.floor(next() * items.length)]!
  const count = 3 + Math.floor(next() * 10)
  const nodes: Array<FlowNode> = [start()]
  for (let index = 0; index < count; index++) {
    const id = `n${index}`
    const kind = pick(["message", "question", "choice", "router", "condition", "set", "end", "jump"])
    const placed = (node: FlowNode): FlowNode => ({ ...node, position: { x: next() * 1000, y: next() * 1000 } })
    nodes.push(placed(
      kind === "message"
        ? message(id, "Hi")
        : kind === "question"
        ? question(id, "answer", { kind: "text" })
        : kind === "choice"
        ? question(id, "size", { kind: "choice", options: [{ value: "s", label: "S" }, { value: "l", label: "L" }] })
        : kind === "router"
        ? router(id, [pick(["refund", "refnd", "greet", "gret"]), pick(["bye", "order_status", "ordr"])])
        : kind === "condition"
        ? condition(id, [["a", "true"], ["b", "false"]])
        : kind === "set"
        ? setValue(id, "x", 1)
        : kind === "jump"
        ? jumpTo(id, `n${Math.floor(next() * count)}`)
        : end(id)
    ))
  }
  const routes: ReadonlyArray<EdgeRoute> = [
    { kind: "next" },
    { kind: "answered" },
    { kind: "fallback" },
    { kind: "option", option: "s" },
    { kind: "intent", intent: "refund" },
    { kind: "intent", intent: "refnd" },
    { kind: "case", case: "a" },
    { kind: "error" }
  ]
  const edges: Array<FlowEdge> = [edge("start", "n0")]
  const edgeCount = Math.floor(next() * count * 2)
  for (let index = 0; index < edgeCount; index++) {
    edges.push(edge(pick(nodes).id, pick(nodes).id, pick(routes)))
  }
  return { nodes, edges, subflows: [] }
}

const repairAll = (graph: FlowGraph) => {
  let current = graph
  let changed = false
  for (const node of graph.nodes) {
    const result = repairNode(current, intents, node.id)!
    expect(flowStructureProblems(result.graph)).toEqual([])
    changed ||= result.changed
    current = result.graph
  }
  return { graph: current, changed }
}

describe("repair over random drafts", () => {
  it("leaves no repairable finding, keeps the graph well-formed, and a second pass changes nothing", () => {
    const repairedKinds = new Set<string>()
    for (let seed = 1; seed <= 200; seed++) {
      const before = draft(seed)
      for (const finding of analyzeFlow(before, intents)) if (finding.repairable) repairedKinds.add(finding.code)
      const once = repairAll(before)
      const left = analyzeFlow(once.graph, intents).filter((finding) =>
        finding.repairable && finding.nodeIds.length > 0 && !finding.nodeIds.includes("start" as never)
      )
      expect({ seed, left }).toEqual({ seed, left: [] })
      expect({ seed, changed: repairAll(once.graph).changed }).toEqual({ seed, changed: false })
    }
    // The drafts did need every kind of repair.
    expect([...repairedKinds].sort()).toEqual([
      "condition-without-fallback",
      "dangling-edge",
      "dead-end",
      "duplicate-route",
      "question-without-fallback",
      "router-without-fallback",
      "undefined-intent"
    ])
  })
})
