import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../identity/Ids.js"
import { ListParams } from "../Pagination.js"
import { ProposedTask } from "./DerivedTasks.js"
import { AiAgentId, AiAgentTaskId, AiAgentToolId } from "./Ids.js"

/** A task's place in the agent's order, from 0: the agent pursues tasks in this order. */
export const AiAgentTaskPosition = Schema.Number.pipe(Schema.int(), Schema.between(0, 199))

/** Whether the agent pursues a task; a disabled one stays in the draft but is left out of the prompt. */
export const AiAgentTaskStatus = Schema.Literal("enabled", "disabled").annotations({ identifier: "AiAgentTaskStatus" })
export type AiAgentTaskStatus = typeof AiAgentTaskStatus.Type

/** The agent's tools a task cannot be done without (at most 32, no repeats). */
export const RequiredToolIds = Schema.Array(AiAgentToolId).pipe(
  Schema.maxItems(32),
  Schema.filter((ids) => new Set(ids).size === ids.length || "a tool is listed twice")
)

/**
 * A task of an AI agent: a goal with success criteria (the same fields as a
 * proposed task from `derive-tasks`), its place in the order, the tools it
 * needs and whether it is enabled. Tasks are part of the draft: a write bumps
 * the agent's revision and a published version snapshots them.
 */
export class AiAgentTask extends Model.Class<AiAgentTask>("AiAgentTask")({
  id: Model.Generated(AiAgentTaskId),
  workspaceId: Model.FieldExcept("jsonCreate", "jsonUpdate")(WorkspaceId),
  agentId: Model.FieldExcept("jsonCreate", "jsonUpdate")(AiAgentId),
  /** Unique per agent. */
  title: ProposedTask.fields.title,
  goal: ProposedTask.fields.goal,
  successCriteria: ProposedTask.fields.successCriteria,
  /** Optional on create: a new task goes last, or at the given place (the tasks after it move down one). */
  position: Model.Field({
    select: AiAgentTaskPosition,
    insert: AiAgentTaskPosition,
    update: AiAgentTaskPosition,
    json: AiAgentTaskPosition,
    jsonCreate: Schema.optional(AiAgentTaskPosition),
    jsonUpdate: Schema.optional(AiAgentTaskPosition)
  }),
  requiredToolIds: Schema.optionalWith(RequiredToolIds, { default: () => [] }),
  status: Schema.optionalWith(AiAgentTaskStatus, { default: () => "enabled" as const }),
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate
}) {}

/** The fields of a new task; unknown fields are refused. */
export const AiAgentTaskCreate = AiAgentTask.jsonCreate.annotations({
  identifier: "AiAgentTaskCreate",
  parseOptions: { onExcessProperty: "error" }
})

const taskPatchFields = {
  title: Schema.optional(ProposedTask.fields.title),
  goal: Schema.optional(ProposedTask.fields.goal),
  successCriteria: Schema.optional(ProposedTask.fields.successCriteria),
  /** Moves the task; the tasks between its old and new place shift by one. */
  position: Schema.optional(AiAgentTaskPosition),
  requiredToolIds: Schema.optional(RequiredToolIds),
  status: Schema.optional(AiAgentTaskStatus)
}

/** A partial update of a task: each field given replaces the stored one; unknown fields are refused. */
export const AiAgentTaskPatch = Schema.Struct(taskPatchFields).annotations({
  identifier: "AiAgentTaskPatch",
  parseOptions: { onExcessProperty: "error" }
})

/** A partial update of the task named by `id`, sent to the collection path; unknown fields are refused. */
export const AiAgentTaskPatchById = Schema.Struct({ id: AiAgentTaskId, ...taskPatchFields }).annotations({
  identifier: "AiAgentTaskPatchById",
  parseOptions: { onExcessProperty: "error" }
})

/** The query of the task list: a page (in position order), optionally only enabled or disabled tasks. */
export const AiAgentTaskListParams = Schema.Struct({
  ...ListParams.fields,
  status: Schema.optional(AiAgentTaskStatus)
})

/** No task with this id exists on the agent. */
export class AiAgentTaskNotFound extends Schema.TaggedError<AiAgentTaskNotFound>()(
  "AiAgentTaskNotFound",
  { taskId: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 404, description: "No task with this id on the agent" })
) {}

/** Another task of the agent already has this title. */
export class AiAgentTaskTitleTaken extends Schema.TaggedError<AiAgentTaskTitleTaken>()(
  "AiAgentTaskTitleTaken",
  { title: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 409, description: "Another task of the agent has this title" })
) {}

/** `requiredToolIds` names tools the agent does not have. */
export class AiAgentTaskToolsUnknown extends Schema.TaggedError<AiAgentTaskToolsUnknown>()(
  "AiAgentTaskToolsUnknown",
  { toolIds: Schema.Array(Schema.String), message: Schema.String },
  HttpApiSchema.annotations({ status: 400, description: "A required tool is not one of the agent's tools" })
) {}
