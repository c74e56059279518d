import { describe, expect, it } from "@effect/vitest"
import {
  chain,
  condition,
  edge,
  node,
  ofCode,
  output,
  textOutput,
  TOOL_ID,
  trigger,
  validate
} from "./WorkflowFixtures.js"

/** A trigger, one node under test, and an output after it. */
const around = (tested: ReturnType<typeof node>) =>
  validate([trigger(), tested, output()], chain("start", `${tested.id}`, "end"))

const branched = (expression: string) =>
  validate([trigger(), condition("c", expression), output()], [
    edge("start", "c"),
    edge("c", "end", "true"),
    edge("c", "end", "false")
  ])

describe("expression syntax", () => {
  it("an expression that does not compile is an error at its field", () => {
    expect(ofCode(branched("vars.a +"), "expression-syntax")).toMatchObject([
      {
        severity: "error",
        nodeId: "c",
        field: "data.expression",
        message: expect.stringContaining("not valid JSONata")
      }
    ])
  })

  it("an input mapping is located by its argument name", () => {
    const http = node("call", "http", { toolId: TOOL_ID, outputVariable: "r", inputMapping: { orderId: "(" } })
    expect(ofCode(around(http), "expression-syntax")).toMatchObject([
      { severity: "error", nodeId: "call", field: "data.inputMapping.orderId" }
    ])
  })

  it("a regex literal Parley cannot run (a lookahead) is refused by the shared compiler", () => {
    expect(ofCode(branched("$contains(\"ab\", /a(?=b)/)"), "expression-syntax")).toMatchObject([
      { field: "data.expression", message: expect.stringContaining("cannot be used") }
    ])
  })

  it("a loop's over and collect are both checked", () => {
    const loop = node("l", "loop", { over: "[1", collect: "item +" })
    const problems = validate([
      trigger(),
      loop,
      node("t", "transform", { expression: "1", outputVariable: "x" }),
      output()
    ], [
      edge("start", "l"),
      edge("l", "t", "body"),
      edge("t", "l"),
      edge("l", "end", "done")
    ])
    expect(ofCode(problems, "expression-syntax").map((p) => p.field)).toEqual(["data.over", "data.collect"])
  })
})

describe("template syntax", () => {
  const prompt = (template: string) =>
    ofCode(around(node("ask", "input", { prompt: template, variable: "answer" })), "template-syntax")

  it("a placeholder that never closes is an error", () => {
    expect(prompt("Hello {{ input.name")).toMatchObject([
      { severity: "error", nodeId: "ask", field: "data.prompt", message: expect.stringContaining("character 6") }
    ])
  })

  it("a placeholder that does not compile is an error, with a count of the others", () => {
    expect(prompt("{{ 1 + }} and {{ ) }} and {{ \"fine\" }}")).toMatchObject([
      { severity: "error", field: "data.prompt", message: expect.stringContaining("1 more broken placeholder") }
    ])
  })

  it("an empty placeholder is an error", () => {
    expect(prompt("Hi {{ }}")).toMatchObject([{ severity: "error", message: expect.stringContaining("is empty") }])
  })

  it("a stray }} is a warning: it is printed as written", () => {
    expect(prompt("Hi }} there")).toMatchObject([{
      severity: "warning",
      message: expect.stringContaining("character 3")
    }])
  })

  it("objects, strings and comments inside a placeholder do not close it", () => {
    expect(prompt("{{ {\"a\": {\"b\": \"}}\"}} /* }} */ }} and {{ '}}' }}")).toEqual([])
  })

  it("an output's text template is checked", () => {
    const problems = validate([trigger(), textOutput("end", "Total: {{ vars. }}")], chain("start", "end"))
    expect(ofCode(problems, "template-syntax")).toMatchObject([{ nodeId: "end", field: "data.template" }])
  })
})
