/**
 * Repair over many seeded random drafts, node by node and the whole flow at
 * once: a repair never leaves more findings than it found nor an error that
 * was not there, every change keeps the graph well-formed, an edge some
 * outcome takes is never deleted (branches become a choice), and a second
 * pass changes nothing.
 */
import { describe, expect, it } from "@effect/vitest"
import { analyzeFlow } from "../../../../../src/domain/assistants/analysis/AnalyzeFlow.js"
import { routeKey, takes } from "../../../../../src/domain/assistants/analysis/Outcomes.js"
import type { EdgeRoute, FlowEdge } from "../../../../../src/domain/assistants/FlowEdge.js"
import type { FlowNode } from "../../../../../src/domain/assistants/FlowNode.js"
import { type FlowGraph, flowStructureProblems } from "../../../../../src/domain/assistants/FlowStructure.js"
import { repairFlow } from "../../../../../src/domain/assistants/repair/RepairFlow.js"
import { findingIdentity, repairNode } from "../../../../../src/domain/assistants/repair/RepairNode.js"
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
    const before = analyzeFlow(current, intents).length
    const result = repairNode(current, intents, node.id)!
    expect(flowStructureProblems(result.graph)).toEqual([])
    // A repair never leaves more findings than it found.
    expect(analyzeFlow(result.graph, intents).length).toBeLessThanOrEqual(before)
    changed ||= result.changed
    current = result.graph
  }
  return { graph: current, changed }
}

const errors = (graph: FlowGraph) =>
  new Set(analyzeFlow(graph, intents).filter((f) => f.severity === "error").map(findingIdentity))

describe("repair over random drafts", () => {
  it("node by node: never more findings, a well-formed graph, and a second pass changes nothing", () => {
    const repairedKinds = new Set<string>()
    let left = 0
    for (let seed = 1; seed <= 200; seed++) {
      const before = draft(seed)
      for (const finding of analyzeFlow(before, intents)) if (finding.repairable) repairedKinds.add(finding.code)
      const once = repairAll(before)
      left += analyzeFlow(once.graph, intents).filter((finding) =>
        finding.repairable && finding.nodeIds.length > 0 && !finding.nodeIds.includes("start" as never)
      ).length
      expect({ seed, changed: repairAll(once.graph).changed }).toEqual({ seed, changed: false })
    }
    // The drafts did need every kind of repair, and nearly all were made (the rest would have cost more than they fix).
    expect([...repairedKinds].sort()).toEqual([
      "condition-without-fallback",
      "dangling-edge",
      "dead-end",
      "duplicate-route",
      "question-without-fallback",
      "router-without-fallback",
      "undefined-intent"
    ])
    expect(left).toBeLessThan(20)
  })

  it("the whole flow at once: never more findings or a new error, no branch deleted, idempotent", () => {
    let fixed = 0
    for (let seed = 1; seed <= 300; seed++) {
      const before = draft(seed)
      const findings = analyzeFlow(before, intents)
      const result = repairFlow(before, intents)
      expect(flowStructureProblems(result.graph)).toEqual([])
      expect(result.remaining).toEqual(analyzeFlow(result.graph, intents))
      expect({ seed, more: result.remaining.length > findings.length }).toEqual({ seed, more: false })
      const known = errors(before)
      expect({ seed, newErrors: [...errors(result.graph)].filter((key) => !known.has(key)) }).toEqual({
        seed,
        newErrors: []
      })
      // An edge is deleted only when no outcome of its node takes it: a branch becomes a choice instead.
      const nodes = new Map(before.nodes.map((node) => [node.id, node]))
      for (const removed of result.diff.removedEdges) {
        const source = nodes.get(removed.source)!
        expect({ seed, edge: removed.id, taken: takes(source, removed) && isFirstFor(before, removed) }).toEqual({
          seed,
          edge: removed.id,
          taken: false
        })
      }
      fixed += result.fixed.length
      expect(result.changed).toBe(result.fixed.length > 0 || result.diff.addedNodes.length > 0)
      expect({ seed, again: repairFlow(result.graph, intents).changed }).toEqual({ seed, again: false })
    }
    expect(fixed).toBeGreaterThan(1000)
  })
})

/** Whether `edge` is the first of its source's edges for its route (the one the engine follows). */
const isFirstFor = (graph: FlowGraph, edge: FlowEdge) => {
  const earlier = graph.edges.slice(0, graph.edges.indexOf(edge))
  return !earlier.some((other) => other.source === edge.source && routeKey(other) === routeKey(edge))
}
