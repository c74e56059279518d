import { describe, expect, it } from "@effect/vitest"
import { chain, edge, node, transform, trigger, validate } from "./WorkflowFixtures.js"

describe("the order of problems", () => {
  it("graph-wide problems first, then by the node's place in the graph, then by code", () => {
    const problems = validate(
      [transform("t", "vars.nope"), node("j", "join"), trigger("start"), transform("orphan", "1")],
      [...chain("start", "t", "j"), edge("j", "ghost")]
    )
    expect(problems.map((p) => [p.nodeId ?? "-", p.code])).toEqual([
      ["-", "no-output"],
      ["t", "unknown-variable"],
      ["j", "dangling-edge"],
      ["j", "join-without-branches"],
      ["j", "dead-end"],
      ["orphan", "unreachable-node"]
    ])
  })
})
