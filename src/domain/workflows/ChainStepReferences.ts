import type { ChainProblem } from "./ChainNotRunnable.js"
import type { ChainStep } from "./ChainStep.js"

/** What the workspace has of a workflow a chain step names: its live version and its published versions. */
export interface StepWorkflowFacts {
  readonly liveVersion: number | null
  readonly versions: ReadonlyArray<number>
}

/** A step that names a workflow the chain cannot run, with the dotted path of the field. */
export interface StepReferenceProblem {
  readonly field: string
  readonly message: string
}

/**
 * The steps' references checked against the workspace: each names one of its
 * workflows, a pinned version must be a published one, and an unpinned step
 * ("latest published") is allowed before the workflow's first publish (the
 * run refuses to start until then), so a chain can be built alongside its
 * workflows.
 */
export const stepReferenceProblems = (
  steps: ReadonlyArray<ChainStep>,
  workflows: ReadonlyMap<string, StepWorkflowFacts>
): ReadonlyArray<StepReferenceProblem> =>
  steps.flatMap((step, index): ReadonlyArray<StepReferenceProblem> => {
    const workflow = workflows.get(step.workflowId)
    if (workflow === undefined) {
      return [{
        field: `steps.${index}.workflowId`,
        message: `step ${step.id} names workflow ${step.workflowId}, which this workspace does not have`
      }]
    }
    if (step.version !== undefined && !workflow.versions.includes(step.version)) {
      return [{
        field: `steps.${index}.version`,
        message:
          `step ${step.id} pins version ${step.version} of workflow ${step.workflowId}, which is not a published version`
      }]
    }
    return []
  })

/**
 * Why a chain cannot start a run now: no steps, a step's workflow gone, an
 * unpinned step's workflow never published, a pinned version that is not a
 * published one. Empty when every step can run.
 */
export const runProblems = (
  steps: ReadonlyArray<ChainStep>,
  workflows: ReadonlyMap<string, StepWorkflowFacts>
): ReadonlyArray<ChainProblem> => {
  if (steps.length === 0) return [{ code: "no-steps", message: "the chain has no steps" }]
  return steps.flatMap((step): ReadonlyArray<ChainProblem> => {
    const place = { stepId: step.id, workflowId: step.workflowId }
    const workflow = workflows.get(step.workflowId)
    if (workflow === undefined) {
      return [{
        code: "workflow-missing",
        message: `step ${step.id}: workflow ${step.workflowId} no longer exists`,
        ...place
      }]
    }
    if (step.version === undefined) {
      return workflow.liveVersion === null
        ? [{
          code: "workflow-not-published",
          message: `step ${step.id}: workflow ${step.workflowId} has no published version yet`,
          ...place
        }]
        : []
    }
    return workflow.versions.includes(step.version)
      ? []
      : [{
        code: "version-missing",
        message: `step ${step.id}: workflow ${step.workflowId} has no published version ${step.version}`,
        ...place
      }]
  })
}
