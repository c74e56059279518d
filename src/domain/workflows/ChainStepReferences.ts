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
