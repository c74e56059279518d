/**
 * A guard against exponential work, not a benchmark: graphs at the size
 * limit whose paths from the trigger number 2^120 are validated in well
 * under a second (asserted loosely, machines are noisy).
 */
import { describe, expect, it } from "@effect/vitest"
import { MAX_NODES } from "../../../../../src/domain/workflows/WorkflowGraph.js"
import { condition, edge, node, output, transform, trigger, validate } from "./WorkflowFixtures.js"

/** `count` diamonds in a row: a condition splits, both sides set `x<i>`, a transform reads it and the one before. */
const diamonds = (count: number) => {
  const nodes = [trigger()]
  const edges = []
  let previous = "start"
  for (let index = 0; index < count; index++) {
    const before = index === 0 ? "1" : `vars.m${index - 1}`
    nodes.push(
      condition(`c${index}`, `${before} > ${index}`),
      transform(`a${index}`, `${before} + 1`, `x${index}`),
      transform(`b${index}`, `${before} - 1`, `x${index}`),
      transform(`m${index}`, `vars.x${index} * 2 + $count(nodes.c${index})`)
    )
    edges.push(
      edge(previous, `c${index}`),
      edge(`c${index}`, `a${index}`, "true"),
      edge(`c${index}`, `b${index}`, "false"),
      edge(`a${index}`, `m${index}`),
      edge(`b${index}`, `m${index}`)
    )
    previous = `m${index}`
  }
  nodes.push(output("end", `vars.m${count - 1}`))
  edges.push(edge(previous, "end"))
  return { nodes, edges }
}

/** After the trigger, every node a parallel fanning out to the next four, so that many edges reach each node. */
const fans = (count: number) => {
  const nodes = [trigger(), ...Array.from({ length: count }, (_, index) => node(`p${index}`, "parallel")), output()]
  const ids = nodes.map((n) => `${n.id}`)
  const edges = ids.slice(0, -1).flatMap((id, index) =>
    (index === 0 ? [1] : [1, 2, 3, 4]).filter((step) => index + step < ids.length).map((step) =>
      edge(id, ids[index + step]!)
    )
  )
  return { nodes, edges }
}

describe("validation at the size limit", () => {
  it("124 diamonds in a row (2^124 paths, 498 nodes) validate with no problem in well under a second", () => {
    const { edges, nodes } = diamonds(124)
    expect(nodes.length).toBeLessThanOrEqual(MAX_NODES)
    const started = Date.now()
    const problems = validate(nodes, edges)
    const elapsed = Date.now() - started
    expect(problems).toEqual([])
    expect(elapsed).toBeLessThan(2_000)
  })

  it("a diamond whose join reads a variable set on one side only is still found, fast", () => {
    const { edges, nodes } = diamonds(124)
    const lopsided = nodes.map((n) => n.id === "b60" ? transform("b60", "0", "other") : n)
    const started = Date.now()
    const problems = validate(lopsided, edges)
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(problems).toMatchObject([{ code: "variable-before-set", severity: "warning", nodeId: "m60" }])
  })

  it("500 nodes and about 2000 edges validate in well under a second", () => {
    const { edges, nodes } = fans(MAX_NODES - 2)
    expect(edges.length).toBeGreaterThan(1_900)
    const started = Date.now()
    const problems = validate(nodes, edges)
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(problems).toEqual([])
  })
})
