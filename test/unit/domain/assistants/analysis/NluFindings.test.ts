import { describe, expect, it } from "@effect/vitest"
import { DateTime, Schema } from "effect"
import { nluFindings } from "../../../../../src/domain/assistants/analysis/NluFindings.js"
import { NluReport } from "../../../../../src/domain/assistants/NluReport.js"

const decode = Schema.decodeUnknownSync(NluReport)
const score = (intent: string, accuracy: number, support = 10) => ({
  intent,
  accuracy,
  precision: accuracy,
  f1: accuracy,
  support
})

const measured = (status: "ready" | "stale") =>
  decode({
    status,
    intentsRevision: 3,
    computedAt: DateTime.formatIso(DateTime.unsafeMake(0)),
    classifier: "builtin",
    folds: 5,
    accuracy: 0.7,
    macroF1: 0.7,
    intents: [score("refund", 0.4), score("greet", 0.95), score("bye", 0.5), score("empty", 0, 0)],
    confusions: [{ expected: "refund", predicted: "return", count: 5, rate: 0.5 }],
    threshold: { value: 0.3, inScopeAccuracy: 0.65, outOfScopeRecall: 0.6 }
  })

describe("nluFindings", () => {
  it("reports intents below 60% recall as warnings, naming what they are taken for", () => {
    const findings = nluFindings(measured("ready"))
    expect(findings.map((f) => [f.code, f.severity, f.intents])).toEqual([
      ["low-intent-accuracy", "warning", ["refund", "return"]],
      ["low-intent-accuracy", "warning", ["bye"]]
    ])
    expect(findings[0]!.message).toBe(
      "The classifier recognises refund on 40% of its examples, most often taking it for return"
    )
  })

  it("reads stale figures too, and nothing from a report still computing or without data", () => {
    expect(nluFindings(measured("stale"))).toHaveLength(2)
    expect(
      nluFindings(
        decode({ status: "computing", intentsRevision: 2, startedAt: DateTime.formatIso(DateTime.unsafeMake(0)) })
      )
    ).toEqual([])
    expect(nluFindings(decode({ status: "insufficient-data", intentsRevision: 2, message: "one intent" }))).toEqual([])
  })
})
