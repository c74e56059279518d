import { describe, expect, it } from "@effect/vitest"
import {
  chain,
  condition,
  edge,
  end,
  message,
  question,
  setExpression,
  setValue,
  start
} from "../../runtime/FlowFixtures.js"
import { about, analyze, ofCode } from "./AnalysisFixtures.js"

describe("variables read before set", () => {
  it("a message reading a variable no path sets is a warning naming it", () => {
    const findings = analyze({
      nodes: [start(), message("hi", "Hello {{name}}, order {{order.id}}"), end()],
      edges: chain("start", "hi", "end")
    })
    expect(ofCode(findings, "variable-read-before-set")).toMatchObject([
      { severity: "warning", nodeIds: ["hi"], variables: ["name", "order"] }
    ])
  })

  it("an answered question sets its variable; its fallback does not", () => {
    const findings = analyze({
      nodes: [
        start(),
        question("ask", "name", { kind: "text" }),
        message("thanks", "Thanks {{name}}"),
        end()
      ],
      edges: [
        ...chain("start", "ask"),
        edge("ask", "thanks", { kind: "answered" }),
        edge("ask", "end", { kind: "fallback" }),
        edge("thanks", "end")
      ]
    })
    expect(ofCode(findings, "variable-read-before-set")).toEqual([])
    const viaFallback = analyze({
      nodes: [start(), question("ask", "name", { kind: "text" }), message("thanks", "Thanks {{name}}"), end()],
      edges: [
        ...chain("start", "ask"),
        edge("ask", "thanks", { kind: "answered" }),
        edge("ask", "thanks", { kind: "fallback" }),
        edge("thanks", "end")
      ]
    })
    expect(about(viaFallback, "variable-read-before-set", "thanks")).toHaveLength(1)
  })

  it("where two branches meet, a variable only one sets is flagged", () => {
    const findings = analyze({
      nodes: [
        start(),
        condition("vip", [["yes", "true"]]),
        setValue("discount", "rate", 10),
        message("merge", "Your rate: {{rate}}"),
        end()
      ],
      edges: [
        ...chain("start", "vip"),
        edge("vip", "discount", { kind: "case", case: "yes" }),
        edge("vip", "merge", { kind: "fallback" }),
        ...chain("discount", "merge", "end")
      ]
    })
    expect(ofCode(findings, "variable-read-before-set")).toMatchObject([{ nodeIds: ["merge"], variables: ["rate"] }])
  })

  it("expressions read vars.name; $exists(vars.name) only tests it", () => {
    const findings = analyze({
      nodes: [
        start(),
        condition("known", [["yes", "$exists(vars.email)"]]),
        setExpression("total", "sum", "vars.price * vars.count"),
        end()
      ],
      edges: [
        ...chain("start", "known"),
        edge("known", "total", { kind: "case", case: "yes" }),
        edge("known", "total", { kind: "fallback" }),
        ...chain("total", "end")
      ]
    })
    expect(ofCode(findings, "variable-read-before-set")).toMatchObject([{
      nodeIds: ["total"],
      variables: ["price", "count"]
    }])
  })
})
