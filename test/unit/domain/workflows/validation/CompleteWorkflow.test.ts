import { describe, expect, it } from "@effect/vitest"
import { completeWorkflow, validate } from "./WorkflowFixtures.js"

describe("a complete workflow", () => {
  it("using every kind of node, with a loop, a parallel section and an approval, has no problem at all", () => {
    const { edges, nodes } = completeWorkflow()
    expect(validate(nodes, edges)).toEqual([])
  })

  it("answers the same list every time", () => {
    const { edges, nodes } = completeWorkflow()
    const broken = [...nodes.slice(0, 4), ...nodes.slice(5)]
    expect(validate(broken, edges)).toEqual(validate(broken, edges))
  })
})
