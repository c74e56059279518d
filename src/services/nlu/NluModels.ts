/**
 * The node's trained intent models, keyed by a digest of the intents they
 * were trained on, so one model serves every holder of equal intents (a
 * draft and the deployments snapshotted from it).
 *
 * `classifier(owner, intents)` answers at once with a `Classifier` for those
 * intents and starts training their model in the background if no model or
 * training exists for them (one training at a time, in time slices that
 * leave the node responsive; a training nobody wants any more, because its
 * owners moved on to other intents, is skipped, and restarted if a
 * classification still needs it). Until the model is ready the classifier answers with the
 * owner's previous model (the old model serves until the new one is ready);
 * with none, a small intents set (`trainsAtOnce`) is trained
 * there and then, and a larger one waits for its training. Models are kept
 * most recently used first within `CACHE_BYTES`.
 *
 * `owner` names who holds the intents: `draft:<agentId>` for a draft,
 * anything stable for others (a deployment's id).
 *
 * A training is the model and the intents' cross-validation (the figures
 * the NLU report shows, `NluReports`, and the automatic out-of-scope
 * threshold they choose): both are ready together, so a classifier's
 * threshold is always the one chosen for the model that answers, a turn never
 * waits for a cross-validation the model does not wait for, and the report
 * reads the same measurement instead of making its own. Cross-validating
 * costs about four trainings more, in the same background slices.
 */
import { Deferred, Effect, Option } from "effect"
import {
  crossValidated,
  crossValidation,
  type CrossValidationResult,
  insufficientData
} from "../../domain/nlu/CrossValidation.js"
import { intentClassifier } from "../../domain/nlu/IntentClassifier.js"
import { type IntentModel, intentTrainer, type TrainingIntent, trainIntentModel } from "../../domain/nlu/IntentModel.js"
import { DEFAULT_THRESHOLD } from "../../domain/nlu/OutOfScopeThreshold.js"
import type { Classifier } from "../../domain/runtime/engine/Classifier.js"
import { runInSlices } from "./Background.js"
import { intentsKey } from "./IntentsKey.js"

/** Who holds an Assistant's draft intents, for `classifier` and `prepare`. */
export const draftOwner = (agentId: string): string => `draft:${agentId}`

/**
 * Whether `intents` are few enough to train (and cross-validate) in the
 * request that first needs them: training costs about utterances times
 * intents, and up to 10,000 of those take about a tenth of a second (with
 * the cross-validation, about half a second).
 */
export const trainsAtOnce = (intents: ReadonlyArray<TrainingIntent>): boolean =>
  intents.reduce((sum, intent) => sum + intent.utterances.length, 0) * intents.length <= 10_000

/** The models kept, in bytes (a CLINC150-sized model holds about 55 MB). */
export const CACHE_BYTES = 512 * 1024 * 1024

/** A trained model, its intents' cross-validation and the automatic threshold it chose. */
export interface Trained {
  readonly model: IntentModel
  /** Undefined when there is too little to measure (`insufficientData`). */
  readonly validation: CrossValidationResult | undefined
  readonly threshold: number
}

const trainedOf = (model: IntentModel, validation: CrossValidationResult | undefined): Trained => ({
  model,
  validation,
  threshold: validation?.threshold.value ?? DEFAULT_THRESHOLD
})

const trainedAtOnce = (intents: ReadonlyArray<TrainingIntent>): Trained =>
  trainedOf(trainIntentModel(intents), crossValidated(intents))

/** Trains the model, then cross-validates, a `budget` at a time (`step` says when both are done). */
const trainingOf = (intents: ReadonlyArray<TrainingIntent>) => {
  const trainer = intentTrainer(intents)
  const validation = insufficientData(intents) === undefined ? crossValidation(intents) : undefined
  let trained = false
  return {
    step: (budget: number): boolean =>
      (trained ||= trainer.step(budget)) && (validation === undefined || validation.step(budget)),
    result: (): Trained => trainedOf(trainer.model(), validation?.result())
  }
}

interface Entry {
  readonly key: string
  readonly intents: ReadonlyArray<TrainingIntent>
  readonly ready: Deferred.Deferred<Trained>
  /** Who asked for these intents. */
  readonly owners: Set<string>
  /** How many classifications wait for this model. */
  waiting: number
  /** Its training was skipped (nobody wanted it any more); a classification that needs it restarts it. */
  skipped: boolean
  model: Trained | undefined
}

export class NluModels extends Effect.Service<NluModels>()("parley/services/nlu/NluModels", {
  scoped: Effect.gen(function*() {
    const scope = yield* Effect.scope
    const one = yield* Effect.makeSemaphore(1)
    // Insertion order is recency order.
    const entries = new Map<string, Entry>()
    /** The intents key each owner asked for last, and the key of its newest ready model. */
    const wanted = new Map<string, string>()
    const latest = new Map<string, string>()

    const touch = (entry: Entry) => {
      entries.delete(entry.key)
      entries.set(entry.key, entry)
    }

    const evict = () => {
      let bytes = 0
      for (const entry of entries.values()) bytes += entry.model?.model.bytes ?? 0
      for (const entry of entries.values()) {
        if (bytes <= CACHE_BYTES) break
        if (entry.model === undefined) continue
        entries.delete(entry.key)
        bytes -= entry.model.model.bytes
        for (const owner of entry.owners) if (latest.get(owner) === entry.key) latest.delete(owner)
      }
    }

    const finish = (entry: Entry, model: Trained) => {
      if (entry.model !== undefined) return
      entry.model = model
      Deferred.unsafeDone(entry.ready, Effect.succeed(model))
      // It becomes the newest model of those who want it now, and of those who had none.
      for (const owner of entry.owners) {
        if (wanted.get(owner) === entry.key || !latest.has(owner)) latest.set(owner, entry.key)
      }
      evict()
    }

    const stillWanted = (entry: Entry) => [...wanted.values()].includes(entry.key)

    const train = (entry: Entry) =>
      one.withPermits(1)(Effect.suspend(() => {
        if (entry.model !== undefined) return Effect.void
        if (!stillWanted(entry) && entry.waiting === 0) {
          entries.delete(entry.key)
          entry.skipped = true
          return Effect.void
        }
        const training = trainingOf(entry.intents)
        return runInSlices((budget) => entry.model !== undefined || training.step(budget)).pipe(
          Effect.tap(() => entry.model === undefined ? finish(entry, training.result()) : undefined)
        )
      })).pipe(Effect.withSpan("NluModels.train", { attributes: { intents: entry.intents.length } }))

    const entryFor = (owner: string, intents: ReadonlyArray<TrainingIntent>): Effect.Effect<Entry> =>
      Effect.gen(function*() {
        const key = intentsKey(intents)
        wanted.set(owner, key)
        const found = entries.get(key)
        if (found !== undefined) {
          found.owners.add(owner)
          touch(found)
          return found
        }
        const entry: Entry = {
          key,
          intents,
          ready: yield* Deferred.make<Trained>(),
          owners: new Set([owner]),
          waiting: 0,
          skipped: false,
          model: undefined
        }
        entries.set(key, entry)
        yield* Effect.forkIn(train(entry), scope)
        return entry
      })

    const modelNow = (owner: string, entry: Entry): Effect.Effect<Trained> =>
      Effect.suspend(() => {
        if (entry.model !== undefined) {
          if (wanted.get(owner) === entry.key) latest.set(owner, entry.key)
          return Effect.succeed(entry.model)
        }
        const previous = Option.fromNullable(latest.get(owner)).pipe(
          Option.flatMapNullable((key) => entries.get(key)?.model)
        )
        if (Option.isSome(previous)) return Effect.succeed(previous.value)
        if (trainsAtOnce(entry.intents)) {
          finish(entry, trainedAtOnce(entry.intents))
          return Effect.succeed(entry.model!)
        }
        return Effect.suspend(() => {
          entry.waiting++
          if (!entry.skipped) return Deferred.await(entry.ready)
          entry.skipped = false
          entries.set(entry.key, entry)
          return Effect.zipRight(Effect.forkIn(train(entry), scope), Deferred.await(entry.ready))
        }).pipe(Effect.ensuring(Effect.sync(() => entry.waiting--)))
      })

    /** A classifier for `intents`, held by `owner`; starts their training when needed. */
    const classifier = Effect.fn("NluModels.classifier")(function*(
      owner: string,
      intents: ReadonlyArray<TrainingIntent>
    ) {
      const entry = yield* entryFor(owner, intents)
      return {
        classify: (text, among) =>
          Effect.flatMap(modelNow(owner, entry), ({ model }) => intentClassifier(model).classify(text, among)),
        threshold: Effect.map(modelNow(owner, entry), ({ threshold }) => threshold)
      } satisfies Classifier
    })

    /** The model for exactly `intents`, waiting for its training (for measurements and tests). */
    const model = Effect.fn("NluModels.model")(function*(owner: string, intents: ReadonlyArray<TrainingIntent>) {
      const entry = yield* entryFor(owner, intents)
      return (yield* Deferred.await(entry.ready)).model
    })

    /** The model for exactly `intents` with their cross-validation and threshold, waiting for all three. */
    const trained = Effect.fn("NluModels.trained")(function*(owner: string, intents: ReadonlyArray<TrainingIntent>) {
      const entry = yield* entryFor(owner, intents)
      return yield* Deferred.await(entry.ready)
    })

    /** Starts training `intents` for `owner` when no model or training exists for them. */
    const prepare = (owner: string, intents: ReadonlyArray<TrainingIntent>): Effect.Effect<void> =>
      Effect.asVoid(entryFor(owner, intents))

    /** Whether the model for `intents` is trained. */
    const isReady = (intents: ReadonlyArray<TrainingIntent>): Effect.Effect<boolean> =>
      Effect.sync(() => entries.get(intentsKey(intents))?.model !== undefined)

    return { classifier, model, trained, prepare, isReady } as const
  })
}) {}
