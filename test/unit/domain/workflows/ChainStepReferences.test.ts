import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { ChainSteps } from "../../../../src/domain/workflows/ChainStep.js"
import { runProblems, stepReferenceProblems } from "../../../../src/domain/workflows/ChainStepReferences.js"

const live = "0190c7a0-0000-7000-8000-000000000001"
const draft = "0190c7a0-0000-7000-8000-000000000002"
const gone = "0190c7a0-0000-7000-8000-000000000003"
const workflows = new Map([
  [live, { liveVersion: 2, versions: [1, 2] }],
  [draft, { liveVersion: null, versions: [] }]
])
const steps = Schema.decodeUnknownSync(ChainSteps)([
  { id: "a", workflowId: live },
  { id: "b", workflowId: live, version: 1 },
  { id: "c", workflowId: live, version: 3 },
  { id: "d", workflowId: draft },
  { id: "e", workflowId: gone }
])

describe("ChainStepReferences", () => {
  it("a run needs every step's workflow, a live version when unpinned, a published one when pinned", () => {
    expect(runProblems(steps, workflows).map((problem) => [problem.stepId, problem.code])).toEqual([
      ["c", "version-missing"],
      ["d", "workflow-not-published"],
      ["e", "workflow-missing"]
    ])
    expect(runProblems(steps.slice(0, 2), workflows)).toEqual([])
    expect(runProblems([], workflows).map((problem) => problem.code)).toEqual(["no-steps"])
  })

  it("a chain may be saved with an unpublished workflow, not with a missing one or an unpublished pin", () => {
    expect(stepReferenceProblems(steps, workflows).map((problem) => problem.field)).toEqual([
      "steps.2.version",
      "steps.4.workflowId"
    ])
  })
})
