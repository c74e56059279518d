/**
 * Compiled draft flows, per node. A draft is compiled once per revision and
 * locale and kept while conversations use it, so a turn costs no more than
 * reading the draft's revision (which it does in the same round trip as its
 * idempotency check).
 */
import { Effect, type Either } from "effect"
import type { AssistantId } from "../../domain/assistants/Assistant.js"
import type { Finding } from "../../domain/assistants/FlowFinding.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import { LruCache } from "../../domain/LruCache.js"
import { compile, type FlowProgram } from "../../domain/runtime/engine/FlowProgram.js"
import { programInputOf } from "../../domain/runtime/engine/ProgramInputs.js"
import { Assistants } from "../assistants/Assistants.js"
import { draftOwner, NluModels } from "../nlu/NluModels.js"

/** A draft as it ran: its revision, and the program or why it cannot run. */
export interface CompiledDraft {
  readonly revision: number
  readonly language: string
  readonly program: Either.Either<FlowProgram, ReadonlyArray<Finding>>
}

const CAPACITY = 500

export class DraftPrograms extends Effect.Service<DraftPrograms>()("parley/services/runtime/DraftPrograms", {
  effect: Effect.gen(function*() {
    const assistants = yield* Assistants
    const models = yield* NluModels
    const cache = new LruCache<CompiledDraft>(CAPACITY)
    const keyOf = (agentId: AssistantId, revision: number, locale: string) => `${agentId}/${revision}/${locale}`

    /**
     * The draft compiled for `locale`: at `revision` when that is known (from
     * the cache), else as the draft stands now. `locale` defaults to the
     * Assistant's language.
     */
    // Untraced: a turn's lookup is a cache hit; the miss is traced by `Assistants.draftOf`.
    const draft = Effect.fnUntraced(function*(
      workspaceId: WorkspaceId,
      agentId: AssistantId,
      options: { readonly revision?: number; readonly locale?: string }
    ) {
      if (options.revision !== undefined && options.locale !== undefined) {
        const hit = cache.get(keyOf(agentId, options.revision, options.locale))
        if (hit !== undefined) return hit
      }
      const draft = yield* assistants.draftOf(workspaceId, agentId)
      const { assistant } = draft
      const input = programInputOf(draft, options.locale)
      // Trained in the background; until then the draft's previous model answers (see `NluModels`).
      const classifier = yield* models.classifier(draftOwner(agentId), input.intents)
      const compiled: CompiledDraft = {
        revision: assistant.revision,
        language: assistant.language,
        program: compile({ ...input, classifier })
      }
      cache.set(keyOf(agentId, assistant.revision, input.locale), compiled)
      return compiled
    })

    return { draft }
  }),
  dependencies: [NluModels.Default]
}) {}
