import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { FlowReplace } from "../../../../src/domain/assistants/Flow.js"
import { checkFlowStructure, flowStructureProblems } from "../../../../src/domain/assistants/FlowStructure.js"

/** A graph as a client sends it, decoded by the contract's schema. */
const graph = (input: { nodes: Array<unknown>; edges?: Array<unknown>; subflows?: Array<unknown> }) =>
  Schema.decodeUnknownSync(FlowReplace)({ edges: [], ...input })

const at = { x: 0, y: 0 }
const start = (id: string, subflow?: string) => ({
  id,
  type: "start",
  position: at,
  data: {},
  ...(subflow === undefined ? {} : { subflow })
})
const end = (id: string, subflow?: string) => ({
  id,
  type: "end",
  position: at,
  data: {},
  ...(subflow === undefined ? {} : { subflow })
})
const next = (id: string, source: string, target: string) => ({ id, source, target, kind: "next" })

describe("flowStructureProblems", () => {
  it("finds nothing wrong with an empty graph or a well-formed one", () => {
    expect(flowStructureProblems(graph({ nodes: [] }))).toEqual([])
    expect(flowStructureProblems(graph({
      nodes: [start("start"), end("done", "billing")],
      edges: [next("e1", "start", "done")],
      subflows: [{ id: "billing", name: "Billing", entryNodeId: "done" }]
    }))).toEqual([])
  })

  it("names each repeated node, edge and sub-flow id once", () => {
    const problems = flowStructureProblems(graph({
      nodes: [start("a"), end("a"), end("a"), end("b")],
      edges: [next("e", "a", "b"), next("e", "a", "b")],
      subflows: [
        { id: "s", name: "One", entryNodeId: "b" },
        { id: "s", name: "Two", entryNodeId: "b" }
      ]
    }))
    expect(problems.map((problem) => [problem.code, problem.nodeIds, problem.edgeIds])).toEqual([
      ["duplicate-node-id", ["a"], []],
      ["duplicate-edge-id", [], ["e"]],
      ["duplicate-subflow-id", [], []]
    ])
    expect(problems[2]!.message).toContain("s")
  })

  it("finds edges whose source or target is not a node, naming what is missing", () => {
    const problems = flowStructureProblems(graph({
      nodes: [start("start")],
      edges: [next("to-nowhere", "start", "ghost"), next("from-nowhere", "void", "void"), next("both", "x", "y")]
    }))
    expect(problems.map((problem) => [problem.code, problem.nodeIds, problem.edgeIds])).toEqual([
      ["unknown-edge-endpoint", ["ghost"], ["to-nowhere"]],
      ["unknown-edge-endpoint", ["void"], ["from-nowhere"]],
      ["unknown-edge-endpoint", ["x", "y"], ["both"]]
    ])
  })

  it("finds nodes in a sub-flow the graph does not declare", () => {
    const problems = flowStructureProblems(graph({
      nodes: [start("start"), end("done", "billing"), end("other", "known")],
      subflows: [{ id: "known", name: "Known", entryNodeId: "other" }]
    }))
    expect(problems).toEqual([
      {
        code: "unknown-subflow",
        message: "Node done is in the sub-flow billing, which the flow does not declare",
        nodeIds: ["done"],
        edgeIds: []
      }
    ])
  })

  it("leaves to the analysis what a draft may still get wrong: jumps and sub-flow entries that lead nowhere", () => {
    expect(flowStructureProblems(graph({
      nodes: [start("start"), {
        id: "jump",
        type: "jump",
        position: at,
        data: { target: { kind: "node", nodeId: "x" } }
      }],
      subflows: [{ id: "s", name: "S", entryNodeId: "nowhere" }]
    }))).toEqual([])
  })
})

describe("checkFlowStructure", () => {
  it("answers the graph when it is well-formed", () => {
    const input = graph({ nodes: [start("start")] })
    expect(checkFlowStructure(input)).toEqual(Either.right(input))
  })

  it("answers InvalidFlow with every problem otherwise", () => {
    const result = checkFlowStructure(graph({ nodes: [start("a"), end("a")], edges: [next("e", "a", "b")] }))
    expect(Either.isLeft(result)).toBe(true)
    const error = Either.getLeft(result).pipe((option) => option._tag === "Some" ? option.value : undefined)!
    expect(error._tag).toBe("InvalidFlow")
    expect(error.problems.map((problem) => problem.code)).toEqual(["duplicate-node-id", "unknown-edge-endpoint"])
    expect(error.message).toBe("The flow is not well-formed: 2 problems")
  })
})
