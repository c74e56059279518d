/**
 * A chain run's decisions between steps, pure: whether a step runs (its
 * `condition`), the input its workflow gets (its `inputMapping`, or the
 * previous step's output, the run's input first), where the run goes next
 * (the first branch whose `when` holds, or the next step in the list), and
 * what a finished workflow hands on (its output). Expressions read
 * `{ input, event, steps: { <step id>: output }, previous }` on the runtime's
 * bounded evaluator. A chain never revisits a step (`ChainSteps` refuses
 * cycles), so a run makes at most one decision of each kind per step.
 */
import { Effect } from "effect"
import type { JsonObject, JsonValue } from "../Json.js"
import { compileExpression, evaluateOver, type EvaluationContext, makeBudget } from "../runtime/engine/Expressions.js"
import { toJson } from "../runtime/engine/ExpressionValues.js"
import type { ChainStep } from "./ChainStep.js"
import type { RunFailure } from "./NodeTrace.js"
import type { WorkflowOutput } from "./WorkflowSimTurn.js"

/** What a chain expression reads. */
export interface ChainDocument {
  readonly input: JsonValue
  readonly event: JsonValue
  readonly steps: JsonObject
  readonly previous: JsonValue
}

/** What the run does with a step: skip it (its condition did not hold), or run its workflow with `input`. */
export type StepPlan =
  | { readonly _tag: "Skip" }
  | { readonly _tag: "Run"; readonly input: JsonValue }

const evaluate = (step: ChainStep, field: string, source: string, document: ChainDocument, nowMillis: number) =>
  Effect.flatMap(
    evaluateOver(
      compileExpression(source),
      { ...document },
      { nowMillis, budget: makeBudget() } satisfies EvaluationContext
    ),
    (result) =>
      result._tag === "Right"
        ? Effect.succeed(toJson(result.right) ?? null)
        : Effect.fail<RunFailure>({
          code: "expression-error",
          message: `step ${step.id}, ${field}: ${result.left.message}`,
          stepId: step.id
        })
  )

/** Whether the step runs and with what input. */
export const planStep = (
  step: ChainStep,
  document: ChainDocument,
  nowMillis: number
): Effect.Effect<StepPlan, RunFailure> =>
  Effect.gen(function*() {
    if (step.condition !== undefined) {
      const holds = yield* evaluate(step, "condition", step.condition, document, nowMillis)
      if (holds !== true) return { _tag: "Skip" } as const
    }
    if (step.inputMapping === undefined) return { _tag: "Run", input: document.previous } as const
    const input: Record<string, JsonValue> = {}
    for (const [name, source] of Object.entries(step.inputMapping)) {
      input[name] = yield* evaluate(step, `inputMapping.${name}`, source, document, nowMillis)
    }
    return { _tag: "Run", input } as const
  })

/** The index of the step after `index`: its first branch whose `when` holds, else the list's next; none ends the run. */
export const nextStep = (
  steps: ReadonlyArray<ChainStep>,
  index: number,
  document: ChainDocument,
  nowMillis: number
): Effect.Effect<number | undefined, RunFailure> =>
  Effect.gen(function*() {
    const step = steps[index]!
    if (step.next === undefined) return index + 1 < steps.length ? index + 1 : undefined
    for (const [branch, { step: target, when }] of step.next.entries()) {
      const holds = when === undefined ||
        (yield* evaluate(step, `next.${branch}.when`, when, document, nowMillis)) === true
      if (holds) return steps.findIndex((candidate) => candidate.id === target)
    }
    return undefined
  })

/**
 * What a workflow hands to the rest of the chain: the value of its last
 * `json` output when it has one, else its text outputs joined by newlines
 * when it has those, else its final variables.
 */
export const workflowOutput = (completed: {
  readonly outputs: ReadonlyArray<WorkflowOutput>
  readonly vars: JsonObject
}): JsonValue => {
  const json = completed.outputs.flatMap((output) => output.format === "json" ? [output.value] : [])
  if (json.length > 0) return json[json.length - 1]!
  const text = completed.outputs.flatMap((output) => output.format === "text" ? [output.text] : [])
  if (text.length > 0) return text.join("\n")
  return completed.vars
}
