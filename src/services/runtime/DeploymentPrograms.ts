/**
 * Compiled deployment snapshots, per node. A snapshot never changes, so each
 * is read and compiled (its NLU model trained) once per locale and kept while
 * conversations use it; a turn on a deployment then costs no draft read.
 */
import { Effect } from "effect"
import type { DeploymentId } from "../../domain/deployments/Deployment.js"
import { LruCache } from "../../domain/LruCache.js"
import { compile } from "../../domain/runtime/engine/FlowProgram.js"
import { programInputOf } from "../../domain/runtime/engine/ProgramInputs.js"
import { DeploymentRepo } from "../../persistence/deployments/DeploymentRepo.js"
import { NluModels } from "../nlu/NluModels.js"
import type { CompiledDraft } from "./DraftPrograms.js"

const CAPACITY = 500

export class DeploymentPrograms extends Effect.Service<DeploymentPrograms>()(
  "parley/services/runtime/DeploymentPrograms",
  {
    effect: Effect.gen(function*() {
      const repo = yield* DeploymentRepo
      const models = yield* NluModels
      const cache = new LruCache<CompiledDraft>(CAPACITY)

      /** The deployment's snapshot compiled for `locale` (the snapshot's language when omitted). */
      const program = Effect.fn("DeploymentPrograms.program")(function*(id: DeploymentId, locale?: string) {
        const key = `${id}/${locale ?? ""}`
        const hit = cache.get(key)
        if (hit !== undefined) return hit
        const { revision, snapshot } = yield* repo.snapshot(id)
        const input = programInputOf(snapshot, locale)
        // The snapshot's model is the one its intents train (shared with the draft while they are equal).
        const classifier = yield* models.classifier(`deployment:${id}`, input.intents)
        const compiled: CompiledDraft = {
          revision,
          language: snapshot.assistant.language,
          program: compile({ ...input, classifier })
        }
        cache.set(key, compiled)
        return compiled
      })

      return { program }
    }),
    dependencies: [DeploymentRepo.Default, NluModels.Default]
  }
) {}
