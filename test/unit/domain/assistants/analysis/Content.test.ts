import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import type { Finding } from "../../../../../src/domain/assistants/FlowFinding.js"
import { Slot } from "../../../../../src/domain/assistants/Intent.js"
import { ai, chain, condition, edge, end, handoff, http, question, router, start } from "../../runtime/FlowFixtures.js"
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

  it("a pattern Parley cannot run in linear time is an error naming its node and the feature", () => {
    const findings = analyze({
      nodes: [
        start(),
        question("code", "code", { kind: "regex", pattern: "(\\w)\\1" }),
        question("zip", "zip", { kind: "regex", pattern: "\\d{5}(?!-)" }),
        // Catastrophic for a backtracking engine, linear on RE2: not a finding.
        question("ok", "ok", { kind: "regex", pattern: "(a+)+$" }),
        router("route", ["order"]),
        condition("check", [["lookbehind", "$contains(input.text, /(?<=#)\\d+/)"], [
          "fine",
          "$contains(input.text, /(a|a)*b/)"
        ]]),
        end()
      ],
      edges: [
        ...chain("start", "code"),
        edge("code", "zip", { kind: "answered" }),
        edge("code", "end", { kind: "fallback" }),
        edge("zip", "ok", { kind: "answered" }),
        edge("zip", "end", { kind: "fallback" }),
        edge("ok", "route", { kind: "answered" }),
        edge("ok", "end", { kind: "fallback" }),
        edge("route", "check", { kind: "intent", intent: "order" }),
        edge("route", "end", { kind: "fallback" }),
        edge("check", "end", { kind: "case", case: "lookbehind" }),
        edge("check", "end", { kind: "case", case: "fine" }),
        edge("check", "end", { kind: "fallback" })
      ],
      intents: [{
        name: "order",
        utterances: ["my order", "order status", "where is it"],
        slots: [
          Schema.decodeUnknownSync(Slot)({ name: "ref", entity: { kind: "regex", pattern: "(?<n>x)\\k<n>" } }),
          Schema.decodeUnknownSync(Slot)({ name: "broken", entity: { kind: "regex", pattern: "(unclosed" } })
        ]
      }]
    })
    const patterns = ofCode(findings, "invalid-pattern")
    expect(patterns.map((f: Finding) => [f.severity, f.nodeIds, f.intents])).toEqual([
      ["error", ["code"], []],
      ["error", ["zip"], []],
      ["error", ["route"], ["order"]],
      ["error", ["route"], ["order"]]
    ])
    expect(patterns.map((f) => f.message)).toEqual([
      "Question code's pattern cannot be used: it uses a backreference (\\1), a feature Parley cannot run in linear time",
      "Question zip's pattern cannot be used: it uses a negative lookahead ((?!...)), a feature Parley cannot run in linear time",
      "The slot ref of the intent order has a pattern that cannot be used: it uses a named backreference (\\k<...>), " +
      "a feature Parley cannot run in linear time",
      "The slot broken of the intent order has a pattern that cannot be used: it is not a valid pattern " +
      "(missing closing ): `(unclosed`)"
    ])
    // A regex literal in an expression is checked too: the case cannot compile.
    const expressions = ofCode(findings, "invalid-expression")
    expect(expressions.map((f) => [f.severity, f.nodeIds])).toEqual([["error", ["check"]]])
    expect(expressions[0]!.message).toBe(
      "The expression of node check's case lookbehind does not compile: the pattern /(?<=#)\\d+/ cannot be used: " +
        "it uses a lookbehind ((?<=...)), a feature Parley cannot run in linear time"
    )
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
