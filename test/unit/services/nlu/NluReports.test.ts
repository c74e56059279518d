import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type { AssistantId } from "../../../../src/domain/assistants/Assistant.js"
import type { NluReport } from "../../../../src/domain/assistants/NluReport.js"
import type { WorkspaceId } from "../../../../src/domain/identity/Ids.js"
import type { TrainingIntent } from "../../../../src/domain/nlu/IntentModel.js"
import { Assistants } from "../../../../src/services/assistants/Assistants.js"
import { draftOwner, NluModels } from "../../../../src/services/nlu/NluModels.js"
import { NluReports } from "../../../../src/services/nlu/NluReports.js"

const workspaceId = "ws" as WorkspaceId
const agentId = "agent" as AssistantId

/** The draft the stub Assistants service reads: changed by the test. */
const draft: { revision: number; intents: ReadonlyArray<TrainingIntent> } = { revision: 1, intents: [] }

const StubAssistants = Layer.succeed(
  Assistants,
  Assistants.make({
    draftOf: () =>
      Effect.succeed({
        assistant: { revision: draft.revision },
        flow: {},
        intents: draft.intents.map((intent) => ({ ...intent, slots: [] }))
      })
  } as never)
)

const first: ReadonlyArray<TrainingIntent> = [
  { name: "greet", utterances: ["hello", "hi there", "good morning", "hey", "good evening"] },
  { name: "bye", utterances: ["goodbye", "bye bye", "see you later", "good night", "farewell"] },
  {
    name: "refund",
    utterances: ["refund my order", "I want my money back", "give me a refund", "money back", "refund"]
  }
]
const second: ReadonlyArray<TrainingIntent> = [
  ...first,
  { name: "order", utterances: ["order a pizza", "I want to order", "order food", "get me a pizza", "place an order"] }
]

const readyReport = (reports: NluReports) =>
  Effect.gen(function*() {
    for (;;) {
      const report = yield* reports.reportFor(workspaceId, agentId)
      if (report.status === "ready" || report.status === "insufficient-data") return report
      yield* Effect.sleep("10 millis")
    }
  })

const statusOf = (report: NluReport) => report.status

describe("NluReports", () => {
  it.live("computes in the background, caches per intents, shows stale figures while intents change", () =>
    Effect.gen(function*() {
      const reports = yield* NluReports
      draft.revision = 1
      draft.intents = first.slice(0, 1)
      expect(yield* reports.reportFor(workspaceId, agentId)).toMatchObject({
        status: "insufficient-data",
        intentsRevision: 1
      })

      draft.revision = 2
      draft.intents = first
      const computing = yield* reports.reportFor(workspaceId, agentId)
      expect(computing).toMatchObject({ status: "computing", intentsRevision: 2 })
      const ready = yield* readyReport(reports)
      expect(ready).toMatchObject({ status: "ready", intentsRevision: 2, classifier: "builtin", folds: 5 })
      if (ready.status !== "ready") return
      expect(ready.intents.map((figures) => [figures.intent, figures.support])).toEqual([
        ["greet", 5],
        ["bye", 5],
        ["refund", 5]
      ])

      // A change elsewhere in the draft keeps the report and its intents revision.
      draft.revision = 3
      expect(yield* reports.reportFor(workspaceId, agentId)).toEqual(ready)

      // The intents change: the old figures are shown as stale until the new ones are ready.
      draft.revision = 4
      draft.intents = second
      const stale = yield* reports.reportFor(workspaceId, agentId)
      expect(stale).toEqual({ ...ready, status: "stale" })
      const renewed = yield* readyReport(reports)
      expect(renewed).toMatchObject({ status: "ready", intentsRevision: 4 })
      if (renewed.status === "ready") expect(renewed.intents.map((figures) => figures.intent)).toContain("order")
      expect([stale, renewed].map(statusOf)).toEqual(["stale", "ready"])
    }).pipe(Effect.provide(NluReports.Default.pipe(Layer.provide(StubAssistants)))))

  it.live("is the draft model's own measurement: one cross-validation serves the report and the threshold", () =>
    Effect.gen(function*() {
      const reports = yield* NluReports
      const models = yield* NluModels
      draft.revision = 5
      draft.intents = second
      const report = yield* readyReport(reports)
      if (report.status !== "ready") return expect.fail(`the report is ${report.status}`)
      // The same instance (its layer named twice by reference): the model is there, trained once.
      expect(yield* models.isReady(second)).toBe(true)
      const trained = yield* models.trained(draftOwner(agentId), second)
      expect(trained.validation).toBeDefined()
      const { confusions, folds, intents, macroF1, threshold } = trained.validation!
      expect({ folds, macroF1, intents, confusions, threshold }).toEqual({
        folds: report.folds,
        macroF1: report.macroF1,
        intents: report.intents,
        confusions: report.confusions,
        threshold: report.threshold
      })
      expect(trained.threshold).toBe(report.threshold.value)
    }).pipe(
      Effect.provide(NluReports.Default.pipe(Layer.provideMerge(NluModels.Default), Layer.provide(StubAssistants)))
    ))
})
