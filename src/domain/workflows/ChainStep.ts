import { Schema } from "effect"
import { InputMapping, JsonataExpression } from "./Expression.js"
import { ChainStepId, WorkflowId, WorkflowVersionNumber } from "./Ids.js"

/** The most steps a chain may hold. */
export const MAX_CHAIN_STEPS = 100

/** A way out of a step: go to `step` when `when` holds (or always, without `when`). */
export const ChainBranch = Schema.Struct({
  step: ChainStepId,
  when: Schema.optional(JsonataExpression)
}).annotations({ identifier: "ChainBranch" })

/**
 * One step of a chain: runs a workflow (its live version, or a pinned one) with
 * input mapped from the chain's state. Each step is a durable activity of the
 * run, so a crash resumes at the failed step and finished steps never run twice.
 */
export const ChainStep = Schema.Struct({
  id: ChainStepId,
  label: Schema.optional(Schema.Trim.pipe(Schema.maxLength(120))),
  workflowId: WorkflowId,
  /** A pinned version; absent: the workflow's live version when the step starts. */
  version: Schema.optional(WorkflowVersionNumber),
  /** The workflow's input by trigger input name; absent: the previous step's output (the run's input first). */
  inputMapping: Schema.optional(InputMapping),
  /** The step runs only when this holds; otherwise it is logged `skipped` and the run goes on. */
  condition: Schema.optional(JsonataExpression),
  /**
   * Where to go after this step. Absent: the next step in the list (the end
   * after the last). Present: the first branch whose `when` holds; none, or
   * an empty list, ends the run.
   */
  next: Schema.optional(Schema.Array(ChainBranch).pipe(Schema.maxItems(20))),
  /** On failure (after every attempt): fail the run, or log the failure and go on. */
  onError: Schema.optionalWith(Schema.Literal("fail", "continue"), { default: () => "fail" as const }),
  maxAttempts: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(1, 10)), { default: () => 3 })
}).annotations({ identifier: "ChainStep" })
export type ChainStep = typeof ChainStep.Type

const successors = (steps: ReadonlyArray<ChainStep>, index: number): ReadonlyArray<string> => {
  const step = steps[index]!
  if (step.next !== undefined) return step.next.map((branch) => branch.step)
  return index + 1 < steps.length ? [steps[index + 1]!.id] : []
}

const problem = (steps: ReadonlyArray<ChainStep>): string | undefined => {
  const index = new Map(steps.map((step, i) => [step.id as string, i]))
  if (index.size !== steps.length) return "step ids must be unique within a chain"
  for (const step of steps) {
    for (const branch of step.next ?? []) {
      if (!index.has(branch.step)) return `step ${step.id} branches to unknown step ${branch.step}`
    }
  }
  // A run never revisits a step: the steps and their branches form no cycle.
  const state = new Map<string, "visiting" | "done">()
  const visit = (id: string): boolean => {
    if (state.get(id) === "done") return false
    if (state.get(id) === "visiting") return true
    state.set(id, "visiting")
    const cyclic = successors(steps, index.get(id)!).some(visit)
    state.set(id, "done")
    return cyclic
  }
  return steps.some((step) => visit(step.id)) ? "the steps of a chain must not form a cycle" : undefined
}

/** A chain's steps, in order: ids are unique, branches name existing steps, and no path loops back. */
export const ChainSteps = Schema.Array(ChainStep).pipe(
  Schema.maxItems(MAX_CHAIN_STEPS),
  Schema.filter((steps) => problem(steps) ?? true),
  Schema.annotations({ identifier: "ChainSteps" })
)
