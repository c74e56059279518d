/**
 * Graph workflows and chains assembled (DESIGN.md §8): the services behind
 * `/v1/workflows` and `/v1/workflow-chains`. It needs the workspace
 * administration below it (the vault, shared tools, the LLM in force, the
 * secret box) and reads the AI agents' rows (an `ai-agent` node calls a
 * published agent).
 */
import { Layer } from "effect"
import { Chains } from "./Chains.js"
import { WorkflowChecks } from "./WorkflowChecks.js"
import { Workflows } from "./Workflows.js"

export const WorkflowsLive = Layer.mergeAll(Workflows.Default, WorkflowChecks.Default, Chains.Default)
