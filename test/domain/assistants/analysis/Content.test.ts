import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import type { Finding } from "../../../../src/domain/assistants/FlowFinding.js"
import { Slot } from "../../../../src/domain/assistants/Intent.js"
import { ai, chain, condition, edge, end, handoff, http, question, start } from "../../runtime/FlowFixtures.js"
import { analyze, ofCode } from "./AnalysisFixtures.js"

describe("content", () => {
  it("an expression that does not compile is an error; a valid one is not", () => {
    const findings = analyze({
      nodes: [start(), condition("check", [["bad", "1 +"], ["good", "vars.x > 1"]]), end()],
      edges: [
        ...chain("start", "check"),
        edge("check", "end", { kind: "case", case: "bad" }),
        edge("check", "end", { kind: "case", case: "good" }),
        edge("check", "end", { kind: "fallback" })
      ]
    })
    expect(ofCode(findings, "invalid-expression")).toMatchObject([{ severity: "error", nodeIds: ["check"] }])
    expect(ofCode(findings, "invalid-expression")[0]!.message).toContain("case bad")
  })

  it("a question or slot pattern the guard refuses is an error", () => {
    const findings = analyze({
      nodes: [
        start(),
        question("code", "code", { kind: "regex", pattern: "(a+)+" }),
        question("ok", "zip", { kind: "regex", pattern: "\\d{5}" }),
        end()
      ],
      edges: [
        ...chain("start", "code"),
        edge("code", "ok", { kind: "answered" }),
        edge("code", "end", { kind: "fallback" }),
        edge("ok", "end", { kind: "answered" }),
        edge("ok", "end", { kind: "fallback" })
      ],
      intents: [{
        name: "order",
        utterances: ["my order", "order status", "where is it"],
        slots: [Schema.decodeUnknownSync(Slot)({ name: "ref", entity: { kind: "regex", pattern: "(unclosed" } })]
      }]
    })
    expect(ofCode(findings, "invalid-pattern").map((f: Finding) => [f.nodeIds, f.intents])).toEqual([
      [["code"], []],
      [[], ["order"]]
    ])
  })

  it("http, ai and handoff nodes are not available yet: errors", () => {
    const findings = analyze({
      nodes: [start(), http("call"), ai("think"), handoff("human"), end()],
      edges: [
        ...chain("start", "call", "think", "human"),
        edge("call", "end", { kind: "error" }),
        edge("think", "end", { kind: "error" })
      ]
    })
    expect(ofCode(findings, "node-unavailable").map((f) => [f.severity, f.nodeIds[0]])).toEqual([
      ["error", "call"],
      ["error", "think"],
      ["error", "human"]
    ])
  })
})
