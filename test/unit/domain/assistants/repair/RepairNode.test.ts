import { describe, expect, it } from "@effect/vitest"
import { analyzeFlow } from "../../../../../src/domain/assistants/analysis/AnalyzeFlow.js"
import type { FlowEdge } from "../../../../../src/domain/assistants/FlowEdge.js"
import type { FlowNodeId } from "../../../../../src/domain/assistants/FlowIds.js"
import type { FlowNode } from "../../../../../src/domain/assistants/FlowNode.js"
import type { FlowGraph } from "../../../../../src/domain/assistants/FlowStructure.js"
import { CHOICE_PROMPT } from "../../../../../src/domain/assistants/repair/ChoiceBranches.js"
import { SORRY_END_TEXT } from "../../../../../src/domain/assistants/repair/ExitRepairs.js"
import { repairNode } from "../../../../../src/domain/assistants/repair/RepairNode.js"
import { chain, condition, edge, end, message, node, question, router, start } from "../../runtime/FlowFixtures.js"

const graph = (nodes: ReadonlyArray<FlowNode>, edges: ReadonlyArray<FlowEdge>): FlowGraph => ({
  nodes,
  edges,
  subflows: []
})
const id = (value: string) => value as FlowNodeId
const at = (base: FlowNode, x: number, y: number): FlowNode => ({ ...base, position: { x, y } })
const intents = [
  { name: "refund", utterances: ["refund please", "money back", "return it"], slots: [] },
  { name: "greet", utterances: ["hello", "hi there", "good morning"], slots: [] }
]

const repaired = (g: FlowGraph, nodeId: string, known = intents) => {
  const result = repairNode(g, known, id(nodeId))
  if (result === undefined) throw new Error("no such node")
  return result
}

const codesAbout = (g: FlowGraph, nodeId: string, known = intents) =>
  analyzeFlow(g, known).filter((f) => f.nodeIds.includes(id(nodeId))).map((f) => f.code)

describe("repairNode", () => {
  it("reconnects a dead end to the nearest end node", () => {
    const g = graph(
      [start(), at(message("hi", "Hello"), 0, 100), at(end("far"), 0, 900), at(end("near"), 50, 200)],
      chain("start", "hi")
    )
    const result = repaired(g, "hi")
    expect(result.changed).toBe(true)
    expect(result.diff.addedEdges).toMatchObject([{ source: "hi", target: "near", kind: "next" }])
    expect(result.diff.addedNodes).toEqual([])
    expect(result.fixed.map((f) => f.code)).toEqual(["dead-end"])
    expect(codesAbout(result.graph, "hi")).not.toContain("dead-end")
  })

  it("adds an end node under the node when there is none, and a fallback to a shared \"sorry\" end", () => {
    const g = graph([start(), at(question("ask", "name", { kind: "text" }), 10, 20)], chain("start", "ask"))
    const result = repaired(g, "ask")
    expect(result.diff.addedNodes).toMatchObject([
      { id: "ask_end", type: "end", position: { x: 10, y: 170 }, data: {} },
      { id: "sorry_end", type: "end", position: { x: 210, y: 170 }, data: { message: SORRY_END_TEXT } }
    ])
    expect(result.diff.addedEdges.map((e) => [e.id, e.kind, e.target])).toEqual([
      ["ask-answered", "answered", "ask_end"],
      ["ask-fallback", "fallback", "sorry_end"]
    ])
    expect(result.fixed.map((f) => f.code).sort()).toEqual(["dead-end", "question-without-fallback"])
    expect(codesAbout(result.graph, "ask")).toEqual([])
    // A second question's fallback shares the sorry end.
    const more = graph([...result.graph.nodes, question("again", "other", { kind: "text" })], [
      ...result.graph.edges.filter((e) => e.id !== "ask-answered"),
      edge("ask", "again", { kind: "answered" }),
      edge("again", "ask_end", { kind: "answered" })
    ])
    expect(repaired(more, "again").diff).toMatchObject({
      addedNodes: [],
      addedEdges: [{ kind: "fallback", target: "sorry_end" }]
    })
  })

  it("never leads a dead end to an end node that reads a variable the path did not set", () => {
    const g = graph([
      start(),
      at(message("hi", "Hello"), 0, 100),
      at(end("thanks", { message: "Thanks, {{name}}!" }), 0, 150),
      at(end("bye", { message: "Bye" }), 0, 600)
    ], chain("start", "hi"))
    const result = repaired(g, "hi")
    expect(result.diff.addedEdges).toMatchObject([{ source: "hi", target: "bye" }])
    expect(analyzeFlow(result.graph, intents).map((f) => f.code)).not.toContain("variable-read-before-set")
    // On a path that set it, the nearest one is safe.
    const asked = graph([
      start(),
      at(question("ask", "name", { kind: "text" }), 0, 50),
      at(message("hi", "Hello"), 0, 100),
      at(end("thanks", { message: "Thanks, {{name}}!" }), 0, 150),
      at(end("bye", { message: "Bye" }), 0, 600)
    ], [...chain("start", "ask"), edge("ask", "hi", { kind: "answered" }), edge("ask", "bye", { kind: "fallback" })])
    expect(repaired(asked, "hi").diff.addedEdges).toMatchObject([{ source: "hi", target: "thanks" }])
  })

  it("a choice question missing option edges gets one answered edge", () => {
    const choice = { kind: "choice", options: [{ value: "a", label: "A" }, { value: "b", label: "B" }] }
    const g = graph([start(), question("pick", "x", choice), end()], [
      ...chain("start", "pick"),
      edge("pick", "end", { kind: "option", option: "a" }),
      edge("pick", "end", { kind: "fallback" })
    ])
    const result = repaired(g, "pick")
    expect(result.diff.addedEdges).toMatchObject([{ kind: "answered", target: "end" }])
  })

  it("drops dangling edges and turns a message's branches into a choice named after their targets", () => {
    const dangling = edge("hi", "end", { kind: "error" })
    const toOther = edge("hi", "other")
    const g = graph([start(), message("hi", "Where to?"), end("end", { message: "Done" }), end("other")], [
      ...chain("start", "hi", "end"),
      dangling,
      toOther
    ])
    const result = repaired(g, "hi")
    expect(result.diff.removedEdges.map((e) => e.id)).toEqual([dangling.id])
    expect(result.diff.changedNodes[0]!.after).toMatchObject({
      id: "hi",
      type: "question",
      data: {
        prompt: "Where to?",
        variable: "choice_hi",
        validation: { kind: "choice", options: [{ value: "done", label: "Done" }, { value: "other", label: "other" }] }
      }
    })
    expect(result.diff.changedEdges.map((c) => c.after)).toMatchObject([
      { source: "hi", target: "end", kind: "option", option: "done" },
      { id: toOther.id, source: "hi", target: "other", kind: "option", option: "other" }
    ])
    expect(result.diff.addedEdges).toMatchObject([{ kind: "fallback", target: "sorry_end" }])
    expect(codesAbout(result.graph, "hi")).toEqual([])
  })

  it("puts a choice on the route that several edges of another node take", () => {
    const g = graph([start(), condition("check", [["yes", "true"]]), end("a"), end("b"), end("c")], [
      ...chain("start", "check"),
      edge("check", "a", { kind: "case", case: "yes" }),
      edge("check", "b", { kind: "fallback" }),
      edge("check", "c", { kind: "fallback" })
    ])
    const result = repaired(g, "check")
    expect(result.diff.removedEdges).toEqual([])
    expect(result.diff.addedNodes[0]).toMatchObject({
      id: "check_choice",
      type: "question",
      data: { prompt: CHOICE_PROMPT, validation: { kind: "choice", options: [{ label: "b" }, { label: "c" }] } }
    })
    expect(result.graph.edges.filter((e) => e.source === "check").map((e) => [e.kind, e.target])).toEqual([
      ["case", "a"],
      ["fallback", "check_choice"]
    ])
    expect(result.fixed.map((f) => f.code)).toEqual(["duplicate-route"])
    expect(analyzeFlow(result.graph, intents).filter((f) => f.severity === "error")).toEqual([])
  })

  it("re-points an undefined intent to the nearest defined one, in the list and on its edge", () => {
    const typo = edge("route", "end", { kind: "intent", intent: "refnd" })
    const g = graph([start(), router("route", ["refnd"]), end()], [
      ...chain("start", "route"),
      typo,
      edge("route", "end", { kind: "fallback" })
    ])
    const result = repaired(g, "route")
    expect(result.diff.changedNodes[0]!.after).toMatchObject({ data: { intents: ["refund"] } })
    expect(result.diff.changedEdges).toMatchObject([{
      before: { intent: "refnd" },
      after: { id: typo.id, intent: "refund" }
    }])
    expect(result.fixed.map((f) => f.code)).toEqual(["undefined-intent"])
    expect(codesAbout(result.graph, "route")).not.toContain("undefined-intent")
  })

  it("leaves an undefined intent with nothing to re-point to, and says it remains", () => {
    const g = graph([start(), router("route", ["refund", "greet", "ghost"]), end()], [
      ...chain("start", "route"),
      edge("route", "end", { kind: "intent", intent: "refund" }),
      edge("route", "end", { kind: "intent", intent: "greet" }),
      edge("route", "end", { kind: "intent", intent: "ghost" }),
      edge("route", "end", { kind: "fallback" })
    ])
    const result = repaired(g, "route")
    expect(result.changed).toBe(false)
    expect(result.remaining.map((f) => f.code)).toEqual(["undefined-intent"])
  })

  it("a condition without fallback gets one; repairing again changes nothing", () => {
    const g = graph([start(), condition("check", [["yes", "true"]]), end()], [
      ...chain("start", "check"),
      edge("check", "end", { kind: "case", case: "yes" })
    ])
    const first = repaired(g, "check")
    expect(first.diff.addedEdges).toMatchObject([{ kind: "fallback", target: "sorry_end" }])
    const second = repaired(first.graph, "check")
    expect(second.changed).toBe(false)
    expect(second.graph).toBe(first.graph)
    expect(second.fixed).toEqual([])
  })

  it("is deterministic, picks fresh ids, keeps the node's sub-flow and never repairs the start", () => {
    const inPage = node("hi", "message", { text: "Hi" }, { subflow: "page" })
    const g: FlowGraph = {
      nodes: [start(), inPage, end("hi_end"), end()],
      edges: [...chain("start", "end"), edge("x", "y")].slice(0, 1),
      subflows: [{ id: "page" as never, name: "Page", entryNodeId: id("hi") }]
    }
    const a = repaired(g, "hi")
    expect(repaired(g, "hi")).toEqual(a)
    expect(a.diff.addedNodes).toMatchObject([{ id: "hi_end_2", subflow: "page" }])
    const noNext = repaired(graph([start(), end()], []), "start")
    expect(noNext.changed).toBe(false)
    expect(noNext.remaining.map((f) => f.code)).toContain("dead-end")
    expect(repairNode(g, intents, id("ghost"))).toBeUndefined()
  })
})
