import { describe, expect, it } from "@effect/vitest"
import { Either, Option } from "effect"
import { isDeployable } from "../../../../../src/domain/assistants/analysis/AnalyzeFlow.js"
import { FindingCode } from "../../../../../src/domain/assistants/FlowFinding.js"
import { compile } from "../../../../../src/domain/runtime/engine/FlowProgram.js"
import { chain, edge, end, handoff, message, question, router, start } from "../../runtime/FlowFixtures.js"
import { analyze } from "./AnalysisFixtures.js"

const messy = {
  nodes: [
    start(),
    question("ask", "name", { kind: "text" }, { prompt: "Hi {{nobody}}?" }),
    message("orphan", "Hi {{nobody}}"),
    router("route", ["greet", "ghost"]),
    handoff("human"),
    end()
  ],
  edges: [
    ...chain("start", "ask"),
    edge("ask", "route", { kind: "answered" }),
    edge("route", "human", { kind: "intent", intent: "greet" }),
    edge("end", "ask")
  ],
  intents: [{ name: "greet", utterances: ["hi"], slots: [] }, { name: "spare", utterances: ["x", "y", "z"], slots: [] }]
}

describe("the analysis as a whole", () => {
  it("answers errors first, then by kind, and the same list every time", () => {
    const findings = analyze(messy)
    const severities = findings.map((f) => f.severity)
    expect(severities.indexOf("warning")).toBeGreaterThan(severities.lastIndexOf("error"))
    const rank = (code: string) => FindingCode.literals.indexOf(code as never)
    for (const severity of ["error", "warning"] as const) {
      const ranks = findings.filter((f) => f.severity === severity).map((f) => rank(f.code))
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b))
    }
    expect(analyze(messy)).toEqual(findings)
    expect(new Set(findings.map((f) => f.code))).toEqual(
      new Set([
        "dead-end",
        "dangling-edge",
        "undefined-intent",
        "node-unavailable",
        "question-without-fallback",
        "router-without-fallback",
        "unreachable-node",
        "unused-intent",
        "few-utterances",
        "variable-read-before-set"
      ])
    )
    expect(isDeployable(findings)).toBe(false)
  })

  it("a flow with only warnings is deployable", () => {
    const findings = analyze({
      nodes: [start(), message("hi", "Hi {{name}}"), end()],
      edges: chain("start", "hi", "end")
    })
    expect(findings.map((f) => f.code)).toEqual(["variable-read-before-set"])
    expect(isDeployable(findings)).toBe(true)
  })
})

describe("the analysis and the engine", () => {
  it("every finding compile refuses a draft with is among the analysis's errors", () => {
    const drafts = [
      { nodes: [message("hello", "Hi")], edges: [] },
      { nodes: [start("a"), start("b"), end()], edges: [...chain("a", "end"), ...chain("b", "end")] },
      { nodes: [start(), end()], edges: [] }
    ]
    for (const draft of drafts) {
      const refused = compile({ ...draft, subflows: [], intents: [], nluThreshold: 0.5, locale: "en" })
      expect(Either.isLeft(refused)).toBe(true)
      const findings = analyze(draft)
      for (const finding of Either.getLeft(refused).pipe(Option.getOrElse(() => []))) {
        expect(findings).toContainEqual(finding)
      }
      expect(isDeployable(findings)).toBe(false)
    }
  })
})
