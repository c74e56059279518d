/**
 * Making a just-created agent's tasks and tools from its wizard draft, then
 * deleting the draft, inside the create's transaction (`AiAgents.create`
 * with `fromDraft`). Each task and tool is created as its own route creates
 * it (checked, audited, the revision bumped). Whatever of the draft cannot
 * become part of the agent (a shared tool deleted since it was picked, a
 * tool name taken twice) is a 400 naming the draft's field, and nothing is
 * created. Deleting the draft last makes two creates from one draft race on
 * its row: the second finds it gone (404) and its agent is rolled back.
 */
import { Effect, Schema } from "effect"
import type { AiAgentDraft } from "../../domain/aiAgents/AiAgentDraft.js"
import { draftTasks, draftTools } from "../../domain/aiAgents/FromDraft.js"
import { AiAgentTaskCreate } from "../../domain/aiAgents/Task.js"
import { AiAgentToolCreate } from "../../domain/aiAgents/Tool.js"
import { ValidationFailed } from "../../domain/HttpErrors.js"
import type { Origin } from "../../domain/identity/Origin.js"
import type { Principal } from "../../domain/identity/Principal.js"
import { WorkspaceToolRepo } from "../../persistence/workspace/WorkspaceToolRepo.js"
import { AiAgentDrafts } from "./AiAgentDrafts.js"
import { AiAgentTasks } from "./AiAgentTasks.js"
import { AiAgentTools } from "./AiAgentTools.js"

const decodeTask = Schema.decodeUnknownSync(AiAgentTaskCreate)
const decodeTool = Schema.decodeUnknownSync(AiAgentToolCreate)

const invalid = (field: string, message: string) => new ValidationFailed({ message, fields: [field] })

export class AgentFromDraft extends Effect.Service<AgentFromDraft>()("parley/services/aiAgents/AgentFromDraft", {
  effect: Effect.gen(function*() {
    const tasks = yield* AiAgentTasks
    const tools = yield* AiAgentTools
    const wizard = yield* AiAgentDrafts
    const workspaceTools = yield* WorkspaceToolRepo

    const apply = Effect.fn("AgentFromDraft.apply")(function*(
      principal: Principal,
      slug: string,
      draft: AiAgentDraft,
      origin: Origin
    ) {
      for (const [index, choice] of draftTools(draft.tools).entries()) {
        const field = `fromDraft.tools[${index}]`
        let name: string
        let config: unknown
        if (choice.kind === "builtin") {
          name = choice.name
          config = { kind: "builtin", builtin: choice.name }
        } else {
          const shared = yield* workspaceTools.find(principal.workspaceId, choice.workspaceToolId)
          if (shared === undefined) {
            return yield* invalid(field, `The draft's workspace tool ${choice.workspaceToolId} no longer exists`)
          }
          name = shared.name
          config = { kind: "workspace", workspaceToolId: choice.workspaceToolId }
        }
        yield* tools.create(principal, slug, decodeTool({ name, config }), undefined, origin).pipe(
          Effect.catchTags({
            AiAgentToolNameTaken: () => invalid(field, `Two of the draft's tools are named ${name}`),
            AiAgentToolInvalid: (failure) => invalid(field, failure.message),
            SecretReferenceMissing: (failure) => invalid(field, failure.message),
            RevisionConflict: Effect.die,
            AiAgentNotFound: Effect.die
          })
        )
      }
      for (const [index, task] of draftTasks(draft.tasks).entries()) {
        yield* tasks.create(
          principal,
          slug,
          decodeTask({ title: task.title, goal: task.goal, successCriteria: task.successCriteria }),
          undefined,
          origin
        ).pipe(
          Effect.catchTags({
            AiAgentTaskTitleTaken: (failure) => invalid(`fromDraft.tasks[${index}]`, failure.message),
            ValidationFailed: (failure) => invalid(`fromDraft.tasks[${index}]`, failure.message),
            // The task names no tools.
            AiAgentTaskToolsUnknown: Effect.die,
            RevisionConflict: Effect.die,
            AiAgentNotFound: Effect.die
          })
        )
      }
      yield* wizard.remove(principal, draft.id)
    })

    return { apply } as const
  }),
  dependencies: [WorkspaceToolRepo.Default]
}) {}
