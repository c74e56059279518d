import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import type { AiAgentTaskId } from "../../domain/aiAgents/Ids.js"
import { AiAgentTasks } from "../../services/aiAgents/AiAgentTasks.js"
import { Api } from "../Api.js"
import { draftCollectionHandlers } from "./draftCollectionHandlers.js"

/** An agent's tasks; the `ById` forms name the task in the body or the query and do the same. */
export const AiAgentTasksHttpLive = HttpApiBuilder.group(Api, "aiAgentTasks", (handlers) =>
  Effect.gen(function*() {
    const tasks = draftCollectionHandlers(
      yield* AiAgentTasks,
      (path: { readonly slug: string; readonly task_id: AiAgentTaskId }) => path.task_id
    )
    return handlers
      .handle("list", tasks.list)
      .handle("create", tasks.create)
      .handle("get", tasks.get)
      .handle("update", tasks.update)
      .handle("delete", tasks.delete)
      .handle("updateById", tasks.updateById)
      .handle("deleteById", tasks.deleteById)
  }))
