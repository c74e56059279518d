import { describe, expect, it } from "@effect/vitest"
import { edge, node, ofCode, output, transform, trigger, validate } from "./WorkflowFixtures.js"

const inputs = [
  { name: "total", type: "number" },
  { name: "name", type: "string" },
  { name: "flag", type: "boolean" },
  { name: "lines", type: "array" },
  { name: "customer", type: "object" }
]

const condition = (expression: string) =>
  ofCode(
    validate([trigger("start", inputs), node("c", "condition", { expression }), output()], [
      edge("start", "c"),
      edge("c", "end", "true"),
      edge("c", "end", "false")
    ]),
    "expression-type"
  )

const loop = (over: string) =>
  ofCode(
    validate([trigger("start", inputs), node("l", "loop", { over }), transform("t", "item"), output()], [
      edge("start", "l"),
      edge("l", "t", "body"),
      edge("t", "l"),
      edge("l", "end", "done")
    ]),
    "expression-type"
  )

const switchOn = (expression: string, values: ReadonlyArray<string | number | boolean>) =>
  ofCode(
    validate(
      [
        trigger("start", inputs),
        node("s", "switch", { expression, cases: values.map((value, index) => ({ name: `c${index}`, value })) }),
        output()
      ],
      [edge("start", "s"), edge("s", "end", "default"), ...values.map((_, index) => edge("s", "end", `c${index}`))]
    ),
    "expression-type"
  )

describe("condition types", () => {
  it("a constant that is not a boolean is an error at data.expression", () => {
    expect(condition("\"yes\"")).toMatchObject([
      { severity: "error", nodeId: "c", field: "data.expression", message: expect.stringContaining("a string") }
    ])
    for (const constant of ["42", "(null)", "[true, 1]", "{\"a\": 1}"]) expect(condition(constant)).toHaveLength(1)
  })

  it("values read with JSONata's truth, booleans and unknowns are not reported", () => {
    const fine = [
      "input.total > 1",
      "input.flag",
      "input.total",
      "$count(input.lines)",
      "[vars.x]",
      "vars.x",
      "true",
      "$exists(input.name)"
    ]
    for (const expression of fine) expect(condition(expression)).toEqual([])
  })
})

describe("loop types", () => {
  it("a loop over a number, a string or an object is an error at data.over", () => {
    expect(loop("5")).toMatchObject([{
      severity: "error",
      nodeId: "l",
      field: "data.over",
      message: expect.stringContaining("a number")
    }])
    expect(loop("input.name")).toHaveLength(1)
    expect(loop("input.customer")).toMatchObject([{ message: expect.stringContaining("an object") }])
  })

  it("a list, or a value of unknown type, is fine", () => {
    expect(loop("[1, 2]")).toEqual([])
    expect(loop("input.lines")).toEqual([])
    expect(loop("input.customer.orders")).toEqual([])
  })
})

describe("switch types", () => {
  it("a case whose value has another type than the expression can never match: a warning at its value", () => {
    expect(switchOn("input.total", [1, "one", true])).toMatchObject([
      { severity: "warning", nodeId: "s", field: "data.cases.1.value" },
      { severity: "warning", nodeId: "s", field: "data.cases.2.value" }
    ])
    expect(switchOn("\"literal\"", [1])).toMatchObject([{ field: "data.cases.0.value" }])
  })

  it("cases of the expression's type, or of an unknown one, are fine", () => {
    expect(switchOn("input.name", ["a", "b"])).toEqual([])
    expect(switchOn("vars.kind", [1, "a"])).toEqual([])
  })
})
