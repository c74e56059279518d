import { describe, expect, it } from "@effect/vitest"
import { chain, edge, node, ofCode, output, transform, trigger, validate } from "./WorkflowFixtures.js"

const inputs = [{ name: "orderId", type: "string" }, { name: "lines", type: "array" }]

/** The unknown-variable problems of a transform reading `expression` after a transform that sets `known`. */
const reading = (expression: string) =>
  ofCode(
    validate(
      [trigger("start", inputs), transform("known", "1"), transform("t", expression, "result"), output()],
      chain("start", "known", "t", "end")
    ),
    "unknown-variable"
  )

describe("unknown variables", () => {
  it("an input the trigger does not declare is an error at the field, naming the declared ones", () => {
    expect(reading("input.orderID")).toMatchObject([
      {
        severity: "error",
        nodeId: "t",
        field: "data.expression",
        message: expect.stringContaining("orderId and lines")
      }
    ])
  })

  it("a variable no node sets, a node that does not exist, and a field outside the document are errors", () => {
    expect(reading("vars.nope").map((p) => p.message)).toEqual([expect.stringContaining("`vars.nope`")])
    expect(reading("nodes.ghost")).toMatchObject([{ message: expect.stringContaining("`nodes.ghost`") }])
    expect(reading("order.total")).toMatchObject([{ message: expect.stringContaining("`vars.order`") }])
  })

  it("known names are fine: declared inputs, written variables, existing nodes, the whole of input and vars", () => {
    expect(reading("[input.orderId, vars.known, nodes.known, nodes.start, input, vars]")).toEqual([])
  })

  it("names inside filters, sorts, group-bys, later path steps and transforms are relative, not the document's", () => {
    const relative = [
      "input.lines[qty > 1].sku",
      "input.lines^(price)",
      "input.lines{sku: price}",
      "input.lines.(price * qty)",
      "$map(input.lines, function($l) { $l.sku })",
      "vars.known ~> |items|{\"seen\": true}|"
    ]
    for (const expression of relative) expect(reading(expression)).toEqual([])
  })

  it("$$ is the document everywhere, and lambdas keep their context", () => {
    expect(reading("input.lines[sku = $$.vars.missing]")).toMatchObject([{
      message: expect.stringContaining("vars.missing")
    }])
    expect(reading("$map([1], function($x) { vars.gone })")).toMatchObject([{
      message: expect.stringContaining("vars.gone")
    }])
  })

  it("each name is reported once per node", () => {
    expect(reading("vars.nope + vars.nope + vars.nope")).toHaveLength(1)
  })

  it("templates are read too", () => {
    const problems = validate(
      [trigger("start", inputs), node("ask", "input", { prompt: "Hi {{ input.name }}", variable: "x" }), output()],
      chain("start", "ask", "end")
    )
    expect(ofCode(problems, "unknown-variable")).toMatchObject([{ nodeId: "ask", field: "data.prompt" }])
  })

  it("without a trigger, inputs are not checked", () => {
    const problems = validate([transform("t", "input.anything"), output()], chain("t", "end"))
    expect(ofCode(problems, "unknown-variable")).toEqual([])
  })
})

describe("item and index", () => {
  const loopGraph = (bodyExpression: string, afterExpression: string, collect = "item") =>
    validate(
      [
        trigger(),
        node("l", "loop", { over: "[1, 2]", collect, outputVariable: "all" }),
        transform("inside", bodyExpression),
        transform("after", afterExpression),
        output()
      ],
      [
        edge("start", "l"),
        edge("l", "inside", "body"),
        edge("inside", "l"),
        edge("l", "after", "done"),
        edge("after", "end")
      ]
    )

  it("are set inside a loop's body and in its collect", () => {
    expect(ofCode(loopGraph("item + index", "vars.all", "item * index"), "unknown-variable")).toEqual([])
  })

  it("are errors after the loop, and in a loop's own over outside any loop", () => {
    expect(ofCode(loopGraph("item", "index"), "unknown-variable")).toMatchObject([
      { severity: "error", nodeId: "after", field: "data.expression", message: expect.stringContaining("`index`") }
    ])
    const problems = validate(
      [trigger(), node("l", "loop", { over: "item" }), transform("t", "item"), output()],
      [edge("start", "l"), edge("l", "t", "body"), edge("t", "l"), edge("l", "end", "done")]
    )
    expect(ofCode(problems, "unknown-variable")).toMatchObject([{ nodeId: "l", field: "data.over" }])
  })
})
