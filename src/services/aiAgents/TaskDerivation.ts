/**
 * Proposing an agent's tasks (`derive-tasks`, both forms). With a model
 * configured for the workspace (its own connection or the server's
 * `PARLEY_LLM_*`), the model is asked for tasks as JSON (`TaskProposals.ts`)
 * and answers `method: llm` with the model that proposed them; its tokens are
 * metered as any model call's. With the offline default, or when the model
 * fails or answers nothing usable, the deterministic outline answers
 * (`method: outline`, `model: null`), so the wizard always gets a proposal;
 * a model that failed is logged as a warning. Nothing is saved.
 */
import { Effect, Option } from "effect"
import type { DerivedTasks } from "../../domain/aiAgents/DerivedTasks.js"
import { outlineTasks } from "../../domain/aiAgents/TaskOutline.js"
import { type ProposalInput, proposalPrompt, readProposals } from "../../domain/aiAgents/TaskProposals.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import { LlmClients } from "../../providers/llm/LlmClients.js"
import { LlmInForce } from "../settings/LlmInForce.js"
import { UsageMeter } from "../workspace/UsageMeter.js"

export class TaskDerivation extends Effect.Service<TaskDerivation>()("parley/services/aiAgents/TaskDerivation", {
  effect: Effect.gen(function*() {
    const inForce = yield* LlmInForce
    const clients = yield* LlmClients
    const usage = yield* UsageMeter

    const outline = (input: ProposalInput): typeof DerivedTasks.Type => ({
      method: "outline",
      model: null,
      tasks: outlineTasks({
        description: input.description,
        context: input.context,
        maxTasks: input.maxTasks,
        existingTitles: input.existingTitles
      })
    })

    /** Tasks from the workspace's model; none when it has only the offline default or the model gave none. */
    const byModel = (workspaceId: WorkspaceId, input: ProposalInput) =>
      Effect.gen(function*() {
        const { fallback, primary } = yield* inForce.resolve(workspaceId)
        if (primary.connection.provider === "offline") return Option.none<typeof DerivedTasks.Type>()
        const use = { workspaceId, actor: { kind: "system" as const } }
        const model = yield* clients.languageModel(
          yield* inForce.target(primary, use),
          fallback === null ? null : yield* inForce.target(fallback, use)
        )
        const { system, user } = proposalPrompt(input)
        const response = yield* model.generateText({
          prompt: [{ role: "system", content: system }, { role: "user", content: user }]
        })
        yield* usage.record({
          workspaceId,
          provider: primary.connection.provider,
          model: primary.connection.model,
          inputTokens: response.usage.inputTokens ?? 0,
          outputTokens: response.usage.outputTokens ?? 0
        })
        const tasks = readProposals(response.text, input.maxTasks, input.existingTitles)
        if (tasks.length === 0) {
          yield* Effect.logWarning("The model proposed no usable task; the outline answers instead")
          return Option.none<typeof DerivedTasks.Type>()
        }
        return Option.some<typeof DerivedTasks.Type>({
          method: "llm",
          model: {
            provider: primary.connection.provider,
            model: primary.connection.model,
            source: "workspace-default"
          },
          tasks
        })
      })

    /** Proposed tasks for `input`, by the workspace's model when it has one, else (or on its failure) by outline. */
    const derive = Effect.fn("TaskDerivation.derive")(function*(workspaceId: WorkspaceId, input: ProposalInput) {
      const proposed = yield* byModel(workspaceId, input).pipe(
        Effect.catchAll((failure) =>
          Effect.as(
            Effect.logWarning("Task derivation by the model failed; the outline answers instead").pipe(
              Effect.annotateLogs({ reason: "message" in failure ? String(failure.message) : String(failure) })
            ),
            Option.none<typeof DerivedTasks.Type>()
          )
        )
      )
      return Option.getOrElse(proposed, () => outline(input))
    })

    return { derive } as const
  })
}) {}
