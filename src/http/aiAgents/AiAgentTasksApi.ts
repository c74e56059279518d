import { HttpApiGroup, OpenApi } from "@effect/platform"
import { AiAgentTaskId } from "../../domain/aiAgents/Ids.js"
import {
  AiAgentTask,
  AiAgentTaskCreate,
  AiAgentTaskListParams,
  AiAgentTaskNotFound,
  AiAgentTaskPatch,
  AiAgentTaskPatchById,
  AiAgentTaskTitleTaken,
  AiAgentTaskToolsUnknown
} from "../../domain/aiAgents/Task.js"
import { ValidationFailed } from "../../domain/HttpErrors.js"
import { Authentication } from "../middleware/Authentication.js"
import { collectionEndpoints, draftWrite } from "./collectionEndpoints.js"

const tasks = collectionEndpoints({
  path: "tasks",
  itemParam: "task_id",
  id: AiAgentTaskId,
  noun: ["task", "tasks"],
  item: AiAgentTask.json,
  detail: AiAgentTask.json,
  listParams: AiAgentTaskListParams,
  create: AiAgentTaskCreate,
  patch: AiAgentTaskPatch,
  patchById: AiAgentTaskPatchById,
  notFound: AiAgentTaskNotFound
})

/** An AI agent's tasks: goals with success criteria, pursued in order (`/v1/ai-agents/{slug}/tasks`). */
export class AiAgentTasksApi extends HttpApiGroup.make("aiAgentTasks")
  .add(tasks.list.annotate(OpenApi.Description, "In position order."))
  .add(
    draftWrite(tasks.create)
      .addError(AiAgentTaskTitleTaken)
      .addError(AiAgentTaskToolsUnknown)
      .addError(ValidationFailed)
      .annotate(
        OpenApi.Description,
        "Without `position` the task goes last; with one, it goes there and the tasks from there on move down one. " +
          "A position past the end is a `ValidationFailed`."
      )
  )
  .add(tasks.get)
  .add(
    draftWrite(tasks.update)
      .addError(AiAgentTaskTitleTaken)
      .addError(AiAgentTaskToolsUnknown)
      .addError(ValidationFailed)
  )
  .add(draftWrite(tasks.delete).annotate(OpenApi.Description, "The tasks after it move up one."))
  .add(
    draftWrite(tasks.updateById)
      .addError(AiAgentTaskTitleTaken)
      .addError(AiAgentTaskToolsUnknown)
      .addError(ValidationFailed)
  )
  .add(draftWrite(tasks.deleteById))
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "AI agent tasks")
  .annotate(
    OpenApi.Description,
    "Goals with success criteria that an AI agent pursues in order, each with the tools it needs. Part of the " +
      "draft: writes take `If-Match` with the agent's revision and bump it."
  )
{}
