/**
 * Hostile drafts: whatever the text of an expression or a template, the
 * validator answers problems and never throws, and a graph made of the
 * costliest expressions is checked within its budget.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  chain,
  condition,
  edge,
  node,
  ofCode,
  output,
  textOutput,
  transform,
  trigger,
  validate
} from "./WorkflowFixtures.js"

const inCondition = (expression: string) =>
  validate([trigger(), condition("c", expression), output()], [
    edge("start", "c"),
    edge("c", "end", "true"),
    edge("c", "end", "false")
  ])

const inTemplate = (template: string) => validate([trigger(), textOutput("end", template)], chain("start", "end"))

/** No control characters reach a message, and no message is longer than a few hundred characters. */
const readable = (problems: ReadonlyArray<{ readonly message: string }>) => {
  for (const { message } of problems) {
    expect(message).not.toMatch(/[\u0000-\u001f]/)
    expect(message.length).toBeLessThan(1_000)
  }
}

describe("hostile expressions", () => {
  it("nesting deep enough to overflow the parser's stack is a syntax error", () => {
    for (
      const deep of [
        "(".repeat(4_000) + "1" + ")".repeat(4_000),
        "[".repeat(4_999) + "]".repeat(4_999),
        "-".repeat(9_999) + "1"
      ]
    ) {
      const problems = inCondition(deep)
      expect(ofCode(problems, "expression-syntax")).toMatchObject([
        { severity: "error", field: "data.expression", message: expect.stringContaining("nests too deeply") }
      ])
    }
  })

  it("deep trees that do compile are walked without recursion", () => {
    for (
      const deep of [
        Array(1_400).fill("vars.a").join("+"),
        "vars.a ? 1 : ".repeat(700) + "2",
        "$f(".repeat(2_000) + ")".repeat(2_000)
      ]
    ) {
      const problems = inCondition(deep)
      readable(problems)
      expect(ofCode(problems, "unknown-variable").length).toBeLessThanOrEqual(1)
    }
  })

  it("a path of thousands of steps is refused as too large before it is compiled", () => {
    const started = Date.now()
    const problems = inCondition("a.".repeat(4_999) + "b")
    expect(ofCode(problems, "expression-syntax")).toMatchObject([{ message: expect.stringContaining("too large") }])
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it("NUL bytes and control characters give problems with printable messages", () => {
    const problems = [
      ...inCondition("vars.a\u0000"),
      ...inCondition("\u0000"),
      ...inCondition("`\u0000\u0001`"),
      ...inCondition("\"\u0000\" = \"\u0000\""),
      ...inTemplate("{{ \u0000 }}\u0000{{"),
      ...inTemplate("{{ nodes.`\u0007bell` }}")
    ]
    expect(problems.length).toBeGreaterThan(0)
    readable(problems)
  })

  it("a name of thousands of characters is cut short in the message", () => {
    const problems = inCondition(`vars.\`${"x".repeat(9_000)}\` = 1`)
    expect(ofCode(problems, "unknown-variable")).toHaveLength(1)
    readable(problems)
  })
})

describe("hostile templates", () => {
  it("thousands of placeholders, broken or not, give at most a few problems per field", () => {
    const many = "{{ vars.nope }}".repeat(1_300)
    const broken = "{{ 1 + }}".repeat(2_200)
    const unclosed = "{{".repeat(10_000)
    const stray = "}}".repeat(10_000)
    const quotes = "{{ \"".repeat(5_000)
    for (const template of [many, broken, unclosed, stray, quotes]) {
      const problems = inTemplate(template)
      expect(problems.length).toBeGreaterThan(0)
      expect(problems.length).toBeLessThanOrEqual(3)
      readable(problems)
    }
  })
})

describe("a graph of costly expressions", () => {
  it("is checked within the budget: what is left over is reported as not checked, never skipped", () => {
    const costly = (index: number) => `${"a.".repeat(1_900)}b${index}`
    const nodes = [
      trigger(),
      ...Array.from({ length: 450 }, (_, index) => transform(`t${index}`, costly(index))),
      node("big", "input", {
        prompt: Array.from({ length: 5 }, (_, index) => `{{ ${costly(1_000 + index)} }}`).join(" "),
        variable: "x"
      }),
      output()
    ]
    const started = Date.now()
    const problems = validate(nodes, chain(...nodes.map((n) => `${n.id}`)))
    const elapsed = Date.now() - started
    const unchecked = problems.filter((p) => p.message.includes("not checked"))
    expect(unchecked.length).toBeGreaterThan(400)
    expect(unchecked.at(-1)).toMatchObject({ code: "template-syntax", nodeId: "big", field: "data.prompt" })
    expect(elapsed).toBeLessThan(5_000)
  })
})
