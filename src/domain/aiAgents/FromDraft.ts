/**
 * What an agent created from a wizard draft (`POST /ai-agents` with
 * `fromDraft`) is made of, as pure functions: the request's fields win, and
 * the draft fills what the request leaves at its default (an empty
 * description or instructions; model settings equal to the defaults). The
 * draft's tasks (titles compared without regard to case) and tools (the same
 * built-in or workspace tool) are taken once each, in the draft's order.
 */
import { Schema } from "effect"
import type { AiAgentCreate } from "./AiAgent.js"
import type { AiAgentDraft, DraftToolChoice } from "./AiAgentDraft.js"
import type { ProposedTask } from "./DerivedTasks.js"
import { ModelSettings } from "./ModelSettings.js"

const defaultModelSettings = JSON.stringify(
  Schema.encodeSync(ModelSettings)(Schema.decodeUnknownSync(ModelSettings)({}))
)
const isDefault = (settings: typeof ModelSettings.Type) =>
  JSON.stringify(Schema.encodeSync(ModelSettings)(settings)) === defaultModelSettings

/** The agent's own fields: the request's, filled from the draft where the request left the default. */
export const fieldsFromDraft = (
  input: typeof AiAgentCreate.Type,
  draft: Pick<AiAgentDraft, "description" | "instructions" | "modelSettings">
): typeof AiAgentCreate.Type => ({
  ...input,
  description: input.description === "" ? draft.description : input.description,
  instructions: input.instructions === "" ? draft.instructions : input.instructions,
  modelSettings: draft.modelSettings !== null && isDefault(input.modelSettings)
    ? draft.modelSettings
    : input.modelSettings
})

/** The draft's tasks, each title once (the first), in order. */
export const draftTasks = (tasks: ReadonlyArray<ProposedTask>): Array<ProposedTask> => {
  const seen = new Set<string>()
  return tasks.filter((task) => {
    const title = task.title.toLowerCase()
    if (seen.has(title)) return false
    seen.add(title)
    return true
  })
}

/** The draft's tools, each choice once (the first), in order. */
export const draftTools = (
  tools: ReadonlyArray<typeof DraftToolChoice.Type>
): Array<typeof DraftToolChoice.Type> => {
  const seen = new Set<string>()
  return tools.filter((tool) => {
    const id = tool.kind === "builtin" ? `builtin:${tool.name}` : `workspace:${tool.workspaceToolId}`
    if (seen.has(id)) return false
    seen.add(id)
    return true
  })
}
