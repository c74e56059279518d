/**
 * Parley documents are read strictly: the exported document imports to the
 * same graph and intents; anything else is refused with a reason.
 */
import { describe, expect, it } from "@effect/vitest"
import { importParley } from "../../../../src/domain/imports/Parley.js"
import { edgesOf, mapped, nodesOf, refused } from "./Conversions.js"

const at = (x: number, y: number) => ({ x, y })
const document = {
  format: "parley",
  version: 1,
  assistant: { name: "Shop", description: "", language: "en", nluThreshold: 0.5 },
  intents: [{ name: "refund", description: "", utterances: ["I want my money back"], slots: [] }],
  flow: {
    nodes: [
      { id: "start", type: "start", position: at(0, 0), data: {} },
      { id: "route", type: "intent-router", position: at(0, 100), data: { intents: ["refund"] } },
      { id: "bill", type: "message", subflow: "billing", position: at(200, 0), data: { text: "Refunds take 5 days" } },
      { id: "go", type: "jump", position: at(0, 200), data: { target: { kind: "subflow", subflowId: "billing" } } }
    ],
    edges: [
      { id: "e1", source: "start", target: "route", kind: "next" },
      { id: "e2", source: "route", target: "go", kind: "intent", intent: "refund", label: "refund" }
    ],
    subflows: [{ id: "billing", name: "Billing", entryNodeId: "bill" }]
  }
}

describe("Parley import", () => {
  it("reads a document as it is: nodes, edges with their routes and labels, sub-flows, intents", () => {
    const result = mapped(importParley(JSON.stringify(document), "shop.parley.json"))
    expect(nodesOf(result)).toEqual(["start start", "route intent-router", "bill message", "go jump"])
    expect(edgesOf(result)).toEqual(["start>route next", "route>go intent:refund \"refund\""])
    expect(result.flow.subflows).toEqual(document.flow.subflows)
    expect(result.flow.nodes.find((n) => n.id === "bill")!.position).toEqual(at(200, 0))
    expect(result.intents).toEqual([{
      name: "refund",
      description: "",
      utterances: ["I want my money back"],
      slots: []
    }])
    expect(result.report.warnings).toEqual([])
  })

  it("refuses what is not a strict version 1 document, naming the file", () => {
    const cases: ReadonlyArray<unknown> = [
      { ...document, version: 2 },
      { ...document, format: "drawio" },
      { ...document, extra: true },
      { ...document, flow: { ...document.flow, nodes: [{ ...document.flow.nodes[0], surprise: 1 }] } },
      { ...document, flow: { ...document.flow, nodes: [{ id: "x", type: "teleport", position: at(0, 0), data: {} }] } },
      { ...document, intents: [{ name: "9 bad name", utterances: [] }] },
      null,
      [],
      "parley",
      42
    ]
    for (const value of cases) {
      const problems = refused(importParley(JSON.stringify(value), "x.json")).problems
      expect(problems[0]!.location).toEqual({ file: "x.json" })
    }
    expect(refused(importParley("{ not json")).problems[0]!.message).toMatch(/^Not JSON/)
    // Like every import, an edge to a node the document lacks is left out with a warning, not the whole document.
    const dangling = mapped(importParley(JSON.stringify({
      ...document,
      flow: {
        ...document.flow,
        edges: [...document.flow.edges, { id: "e3", source: "start", target: "nowhere", kind: "next" }]
      }
    })))
    expect(dangling.report.warnings).toEqual([{
      code: "dangling-edge",
      message: "Edge e3 joins a node that was not imported",
      location: { elementId: "e3" }
    }])
    expect(refused(importParley(JSON.stringify({ ...document, version: 2 }))).problems[0]!.message).toMatch(/version 2/)
  })
})
