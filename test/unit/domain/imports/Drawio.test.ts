/**
 * draw.io diagrams to flows: plain, compressed and bare models, pages as
 * sub-flows, shapes by style, labelled edges; and nasty input, which is
 * refused with a reason or mapped with warnings, never thrown.
 */
import { describe, expect, it } from "@effect/vitest"
import { deflateSync, strToU8 } from "fflate"
import { importDrawio } from "../../../../src/domain/imports/Drawio.js"
import { codesOf, dataOf, edgesOf, mapped, nodesOf, refused, routesFollowable } from "./Conversions.js"

const cell = (id: string, value: string, style: string, x = 0, y = 0, parent = "1") =>
  `<mxCell id="${id}" value="${value}" style="${style}" vertex="1" parent="${parent}"><mxGeometry x="${x}" y="${y}" width="80" height="40" as="geometry"/></mxCell>`
const edge = (id: string, source: string, target: string, value = "") =>
  `<mxCell id="${id}" value="${value}" edge="1" parent="1" source="${source}" target="${target}"><mxGeometry relative="1" as="geometry"/></mxCell>`

/** Start, a yes/no decision, two messages, an end; a connector with no target. */
const model = `<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>
${cell("s", "Start", "ellipse;whiteSpace=wrap;", 10, 10)}
${cell("q", "Happy?", "rhombus;", 10, 100)}
${cell("m", "&lt;b&gt;Great&lt;/b&gt;&lt;br&gt;news", "rounded=1;", 10, 200)}
${cell("m2", "Sorry", "rounded=1;", 200, 200)}
${cell("e", "End", "ellipse;", 10, 300)}
${edge("c1", "s", "q")}${edge("c2", "q", "m", "Yes")}${edge("c3", "q", "m2", "No")}${edge("c4", "m", "e")}${
  edge("c5", "m2", "e")
}
<mxCell id="c6" edge="1" parent="1" source="m2"><mxGeometry relative="1" as="geometry"/></mxCell>
</root></mxGraphModel>`

const expectedNodes = ["s start Start", "q condition Happy?", "m message Great news", "m2 message Sorry", "e end End"]
const expectedEdges = ["s>q next", "q>m case:yes \"Yes\"", "q>m2 fallback \"No\"", "m>e next", "m2>e next"]

const compress = (xml: string) => Buffer.from(deflateSync(strToU8(encodeURIComponent(xml)))).toString("base64")

describe("draw.io import", () => {
  it("reads a plain page: shapes by style, yes/no decision as a condition, labels without markup, positions kept", () => {
    const result = mapped(importDrawio(`<mxfile host="test"><diagram name="Main" id="p1">${model}</diagram></mxfile>`))
    expect(nodesOf(result)).toEqual(expectedNodes)
    expect(edgesOf(result)).toEqual(expectedEdges)
    expect(dataOf(result, "q")).toEqual({ cases: [{ key: "yes", expression: "vars.happy = true" }] })
    expect(dataOf(result, "m").text).toBe("Great\nnews")
    expect(result.flow.nodes.find((n) => n.id === "m2")!.position).toEqual({ x: 200, y: 200 })
    expect(result.report.mapped).toMatchObject({ nodes: 5, edges: 5, subflows: 0 })
    const dangling = result.report.warnings.find((w) => w.code === "dangling-edge")
    expect(dangling?.location).toEqual({ page: "Main", elementId: "c6" })
    routesFollowable(result)
  })

  it("reads a compressed page (base64, raw DEFLATE, URI-encoded) and a bare mxGraphModel to the same graph", () => {
    for (const xml of [`<mxfile><diagram name="Main" id="p1">${compress(model)}</diagram></mxfile>`, model]) {
      const result = mapped(importDrawio(xml))
      expect(nodesOf(result)).toEqual(expectedNodes)
      expect(edgesOf(result)).toEqual(expectedEdges)
    }
  })

  it("makes every page after the main one a sub-flow entered after its start shape; mainPage picks the main page", () => {
    const other = `<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>
${cell("b", "Begin", "ellipse;", 0, 0)}${cell("x", "Billing help", "rounded=1;", 0, 100)}${
      cell("y", "Done", "ellipse;", 0, 200)
    }
${edge("k1", "b", "x")}${edge("k2", "x", "y")}</root></mxGraphModel>`
    const xml = `<mxfile><diagram name="Main" id="p1">${model}</diagram><diagram name="Billing" id="p2">${
      compress(other)
    }</diagram></mxfile>`
    const result = mapped(importDrawio(xml))
    expect(result.flow.subflows).toEqual([{ id: "p2", name: "Billing", entryNodeId: "x" }])
    expect(result.flow.nodes.filter((n) => n.subflow === "p2").map((n) => `${n.id} ${n.type}`)).toEqual([
      "x message",
      "y end"
    ])
    expect(result.report.mapped.subflows).toBe(1)

    const billingFirst = mapped(importDrawio(xml, "Billing"))
    expect(billingFirst.flow.nodes.find((n) => n.type === "start")?.id).toBe("b")
    expect(billingFirst.flow.subflows.map((s) => s.name)).toEqual(["Main"])
    const unknownPage = mapped(importDrawio(xml, "Nope"))
    expect(codesOf(unknownPage)).toContain("unresolved-reference")
  })

  it("maps a decision with other labels to an intent router (one intent per label), manual input to a question, edge label children to the edge", () => {
    const xml = `<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>
${cell("s", "", "ellipse;fillColor=#000000;")}${cell("r", "What do you need?", "rhombus;")}
${cell("a", "Your order number?", "shape=manualInput;")}${cell("b", "Refunds take 5 days", "")}
${cell("note", "A note nobody connects", "text;")}
${edge("c1", "s", "r")}${edge("c2", "r", "a")}${edge("c3", "r", "b", "Refund please")}
<mxCell id="lbl" value="Track order" style="edgeLabel;" vertex="1" connectable="0" parent="c2"><mxGeometry as="geometry"/></mxCell>
</root></mxGraphModel>`
    const result = mapped(importDrawio(xml))
    expect(nodesOf(result)).toEqual([
      "s start",
      "r intent-router What do you need?",
      "a question Your order number?",
      "b message Refunds take 5 days"
    ])
    expect(edgesOf(result)).toEqual([
      "s>r next",
      "r>a intent:Track_order \"Track order\"",
      "r>b intent:Refund_please \"Refund please\""
    ])
    expect(result.intents.map((i) => [i.name, i.utterances])).toEqual([["Track_order", ["Track order"]], [
      "Refund_please",
      ["Refund please"]
    ]])
    expect(dataOf(result, "a")).toMatchObject({ variable: "your_order_number", validation: { kind: "text" } })
    expect(result.report.warnings.some((w) => w.code === "unsupported-element" && w.location?.elementId === "note"))
      .toBe(true)
    routesFollowable(result)
  })

  it("adds a start when the diagram has none, and warns", () => {
    const result = mapped(
      importDrawio(
        `<mxGraphModel><root>${cell("a", "A", "")}${cell("b", "B", "")}${edge("x", "a", "b")}</root></mxGraphModel>`
      )
    )
    expect(nodesOf(result)[0]).toBe("start start Start")
    expect(edgesOf(result)).toContain("start>a next")
    expect(codesOf(result)).toContain("missing-start")
  })

  it("refuses a DOCTYPE or entity declaration (no entity expansion)", () => {
    const problems = refused(
      importDrawio(
        `<?xml version="1.0"?><!DOCTYPE m [<!ENTITY a "${
          "x".repeat(100)
        }">]><mxGraphModel><root>&a;</root></mxGraphModel>`
      )
    ).problems
    expect(problems[0]!.message).toMatch(/DOCTYPE/)
    refused(
      importDrawio(
        `<mxfile><diagram name="x">${compress(`<!DOCTYPE x [<!ENTITY e "e">]><mxGraphModel/>`)}</diagram></mxfile>`
      )
    )
  })

  it("refuses garbage with a reason and a valid location, never throws", () => {
    const cases = [
      " ",
      "\n\n",
      "hello <<< world",
      "<a></b>",
      "<mxGraphModel/>",
      "<html><body>hi</body></html>",
      "<mxfile host=\"x\"/>",
      "<mxfile><diagram name=\"x\"></diagram></mxfile>",
      "<mxfile><diagram name=\"x\">!!!not base64</diagram></mxfile>",
      "<mxfile><diagram name=\"x\">aGVsbG8gd29ybGQ=</diagram></mxfile>",
      `<mxfile><diagram name="x">${
        Buffer.from(deflateSync(strToU8("not xml at all"))).toString("base64")
      }</diagram></mxfile>`,
      "<mxGraphModel><root>text only</root></mxGraphModel>",
      "\u0000\u0001\u0002"
    ]
    for (const xml of cases) refused(importDrawio(xml))
    const blank = refused(importDrawio(" ")).problems[0]!
    expect(blank.location).toEqual({ line: 1, column: 1 })
  })

  it("maps what it can of odd cells: parent cycles, odd ids, non-numeric geometry, one unreadable page among good ones", () => {
    const odd = mapped(importDrawio(`<mxGraphModel><root>
<mxCell id="a" vertex="1" parent="b" value="A"/><mxCell id="b" vertex="1" parent="a" value="B"/>
<mxCell id="__proto__" vertex="1" value="P"><mxGeometry x="1e400" y="NaN" as="geometry"/></mxCell>
<mxCell id="constructor" vertex="1" value="C"/><mxCell id="k" edge="1" source="__proto__" target="constructor"/>
</root></mxGraphModel>`))
    expect(odd.flow.nodes.map((n) => n.type)).toEqual(["start", "message", "message", "message", "message"])
    for (const node of odd.flow.nodes) {
      expect(Number.isFinite(node.position.x) && Number.isFinite(node.position.y)).toBe(true)
    }

    const partly = mapped(
      importDrawio(`<mxfile><diagram name="Main">${model}</diagram><diagram name="Broken">%%%</diagram></mxfile>`)
    )
    expect(partly.report.warnings.some((w) => w.code === "unreadable" && w.location?.page === "Broken")).toBe(true)
  })

  it("stays linear on one shape with thousands of connectors and on thousands of pages", () => {
    const n = 20_000
    const cells =
      Array.from({ length: n }, (_, i) => `<mxCell id="v${i}" value="V${i}" vertex="1" parent="1"/>`).join("") +
      Array.from({ length: n }, (_, i) => `<mxCell id="e${i}" edge="1" parent="1" source="v0" target="v${i}"/>`).join(
        ""
      )
    const started = Date.now()
    const fan = mapped(
      importDrawio(`<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>${cells}</root></mxGraphModel>`)
    )
    expect(fan.report.mapped.nodes).toBe(1000)
    expect(codesOf(fan)).toContain("truncated")
    const page = `<diagram name="p"><mxGraphModel><root>${cell("a", "A", "")}${cell("b", "B", "")}${
      edge("e", "a", "b")
    }</root></mxGraphModel></diagram>`
    const pages = mapped(importDrawio(`<mxfile>${page.repeat(10_000)}</mxfile>`))
    expect(pages.report.mapped.subflows).toBe(100)
    expect(Date.now() - started).toBeLessThan(15_000)
  })
})
