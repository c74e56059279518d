/**
 * The built-in intent model: `Vectorizer` TF-IDF features and a
 * `SoftmaxRegression` over the intents (plus, when out-of-scope examples are
 * given, one more class for them), together with the examples' vectors.
 *
 * A text's confidence for an intent is the geometric mean of two readings:
 * the model's probability `p` (how much more it reads as this intent than as
 * the others) and `q`, its cosine similarity to the intent's nearest example
 * (how much it reads as anything the intent was taught at all). `p` alone
 * tells intents apart but must share itself out among them, so with two
 * intents any text scores at least 0.5 on one; `q` is what keeps a text about
 * something else low. An example typed back (`q` = 1 and no other intent has
 * it, as `Tokens` reads words) scores 1. `q` is computed for the most
 * probable intents only (at most `NEAREST`, none far less probable than the
 * best); the others score 0.
 *
 * Training is deterministic (a fixed seed, features numbered in order of
 * first sight), so the same intents always give the same model.
 */
import { tokens } from "../runtime/engine/Tokens.js"
import { type NearestExamples, nearestExamples } from "./NearestExamples.js"
import {
  probabilities,
  type SoftmaxModel,
  type SoftmaxOptions,
  type SoftmaxTrainer,
  softmaxTrainer
} from "./SoftmaxRegression.js"
import type { SparseVector } from "./SparseVector.js"
import { defaultVectorizerOptions, fittingVectorizer, type Vectorizer, type VectorizerOptions } from "./Vectorizer.js"

/** An intent as the model learns it. */
export interface TrainingIntent {
  readonly name: string
  readonly utterances: ReadonlyArray<string>
}

export interface IntentModelOptions {
  readonly vectorizer: VectorizerOptions
  readonly softmax: SoftmaxOptions
  /** Training runs at least this many example updates in all (small intent sets get more epochs). */
  readonly minimumUpdates: number
  /** Messages that belong to no intent, learnt as a class of their own (never answered as an intent). */
  readonly outOfScope: ReadonlyArray<string>
}

export const defaultIntentModelOptions: IntentModelOptions = {
  vectorizer: defaultVectorizerOptions,
  softmax: { epochs: 12, learningRate: 3, decay: 0.3, l2: 1e-6, seed: 7, balanced: true },
  minimumUpdates: 3000,
  outOfScope: []
}

/** How many of the most probable intents get their nearest-example similarity computed. */
const NEAREST = 4

/** An intent whose probability is below this share of the best one's is not among them. */
const FAR_LESS = 1 / 8

/** One intent's reading of a text. */
export interface IntentReading {
  readonly intent: string
  readonly confidence: number
  readonly probability: number
  readonly similarity: number
}

export interface IntentModel {
  /** The intents it knows, in training order. */
  readonly intents: ReadonlyArray<string>
  /** The readings of `among` (all intents when omitted), best first; an unknown intent reads 0. */
  readonly read: (text: string, among?: ReadonlyArray<string>) => ReadonlyArray<IntentReading>
  /**
   * The readings of every intent but `unknown`, as a model that never learnt
   * `unknown` would give them: probabilities renormalised without it (a
   * softmax restricted to fewer classes). How a message about something the
   * bot was not taught reads, for choosing an out-of-scope threshold.
   */
  readonly readWithout: (text: string, unknown: string) => ReadonlyArray<IntentReading>
  /**
   * About how many bytes it keeps (weights, vocabulary, nearest-example index
   * and typed-back examples), to bound a cache of models; the training
   * vectors and texts are not kept.
   */
  readonly bytes: number
}

/** Training in progress; `step` runs up to `budget` example updates and says whether it is done. */
export interface IntentTrainer {
  readonly step: (budget: number) => boolean
  /** The model; only once `step` has said done. */
  readonly model: () => IntentModel
}

/** Starts training a model on `intents` (a name given twice keeps its first examples; blank utterances are skipped). */
export const intentTrainer = (
  intents: ReadonlyArray<TrainingIntent>,
  options: IntentModelOptions = defaultIntentModelOptions
): IntentTrainer => {
  const kept = intents.filter((intent, index) => intents.findIndex((other) => other.name === intent.name) === index)
  const names = kept.map((intent) => intent.name)
  const examples = kept.flatMap((intent, label) =>
    intent.utterances.filter((text) => text.trim().length > 0).map((text) => ({ text, label }))
  )
  const outOfScope = options.outOfScope.filter((text) => text.trim().length > 0)
  const classes = Math.max(1, names.length + (outOfScope.length > 0 ? 1 : 0))
  const texts = [...examples.map((example) => example.text), ...outOfScope]
  const labels = [...examples.map((example) => example.label), ...outOfScope.map(() => names.length)]
  const epochs = Math.max(options.softmax.epochs, Math.ceil(options.minimumUpdates / Math.max(1, texts.length)))
  // Stages, each advanced a budget's worth at a time: count features, vectorize, descend, index.
  const fitting = fittingVectorizer(options.vectorizer)
  let counted = 0
  let vectorizer: Vectorizer | undefined
  const vectors: Array<SparseVector> = []
  let trainer: SoftmaxTrainer | undefined
  let model: IntentModel | undefined
  const step = (budget: number): boolean => {
    let left = budget
    while (counted < texts.length && left-- > 0) fitting.add(texts[counted++]!)
    if (counted < texts.length) return false
    vectorizer ??= fitting.build()
    while (vectors.length < texts.length && left-- > 0) vectors.push(vectorizer.vectorize(texts[vectors.length]!))
    if (vectors.length < texts.length) return false
    trainer ??= softmaxTrainer(vectors, labels, classes, vectorizer.size, { ...options.softmax, epochs })
    if (left <= 0 || !trainer.step(left)) return false
    model ??= intentModel({
      names,
      vectorize: vectorizer.vectorize,
      vectorizerBytes: vectorizer.bytes,
      softmax: trainer.model,
      nearest: nearestExamples(vectors.slice(0, examples.length), labels, names.length, vectorizer.size),
      typedBack: typedBack(examples)
    })
    return true
  }
  return {
    step,
    model: () => {
      if (model === undefined) throw new Error("The intent model is still training")
      return model
    }
  }
}

/** About the bytes a string and its entry in a `Map` take (V8: a header, one or two bytes a character, the entry). */
const stringEntryBytes = (text: string): number => 56 + text.length * (/[^\u0000-\u00ff]/.test(text) ? 2 : 1)

/**
 * The intent each example's words (as `Tokens` reads them) belong to, or -1
 * when several intents share the example; and the bytes the table keeps.
 */
const typedBack = (examples: ReadonlyArray<{ readonly text: string; readonly label: number }>) => {
  const labels = new Map<string, number>()
  for (const { label, text } of examples) {
    const key = tokens(text).join(" ")
    const known = labels.get(key)
    labels.set(key, known === undefined || known === label ? label : -1)
  }
  let bytes = 0
  for (const key of labels.keys()) bytes += stringEntryBytes(key)
  return {
    label: (text: string): number | undefined => {
      const found = labels.get(tokens(text).join(" "))
      return found === undefined || found < 0 ? undefined : found
    },
    bytes
  }
}

const intentModel = (parts: {
  readonly names: ReadonlyArray<string>
  readonly vectorize: (text: string) => SparseVector
  readonly softmax: SoftmaxModel
  readonly nearest: NearestExamples
  readonly typedBack: ReturnType<typeof typedBack>
  readonly vectorizerBytes: number
}): IntentModel => {
  const { names, nearest, softmax, vectorize } = parts
  const position = new Map(names.map((name, index) => [name, index]))
  const readings = (text: string, among: ReadonlyArray<string>, without: number): ReadonlyArray<IntentReading> => {
    const vector = vectorize(text)
    const p = probabilities(softmax, vector)
    if (without >= 0) {
      const rest = 1 - p[without]!
      for (let c = 0; c < p.length; c++) p[c] = c === without || rest <= 0 ? 0 : p[c]! / rest
    }
    const exact = parts.typedBack.label(text)
    const labels = among.map((intent) => position.get(intent) ?? -1)
    const probability = (order: number) => labels[order]! < 0 || vector.indices.length === 0 ? 0 : p[labels[order]!]!
    // The NEAREST most probable (ties in `among` order), by selection: the rest score 0 and keep `among` order.
    const top: Array<number> = []
    for (let order = 0; order < among.length; order++) {
      if (probability(order) <= 0 && labels[order] !== exact) continue
      let at = top.length
      while (at > 0 && probability(top[at - 1]!) < probability(order)) at--
      if (at < NEAREST) {
        top.splice(at, 0, order)
        if (top.length > NEAREST) top.pop()
      }
    }
    // Far less probable than the best, an intent is not worth its similarity: it scores 0.
    const floor = top.length === 0 ? 0 : probability(top[0]!) * FAR_LESS
    while (top.length > 1 && probability(top[top.length - 1]!) < floor && labels[top[top.length - 1]!] !== exact) {
      top.pop()
    }
    const readings = top.map((order) => {
      const label = labels[order]!
      const reading = (similarity: number, confidence: number): IntentReading & { order: number } => ({
        intent: among[order]!,
        confidence,
        probability: probability(order),
        similarity,
        order
      })
      if (label === exact) return reading(1, 1)
      const similarity = nearest.similarity(vector, label)
      return reading(similarity, Math.sqrt(probability(order) * similarity))
    }).sort((a, b) => b.confidence - a.confidence || a.order - b.order)
    const chosen = new Set(top)
    const rest = among.flatMap((intent, order) =>
      chosen.has(order) ? [] : [{ intent, confidence: 0, probability: probability(order), similarity: 0 }]
    )
    return [
      ...readings.map(({ confidence, intent, probability, similarity }) => ({
        intent,
        confidence,
        probability,
        similarity
      })),
      ...rest
    ]
  }
  const read = (text: string, among: ReadonlyArray<string> = names) => readings(text, among, -1)
  const readWithout = (text: string, unknown: string) => {
    const label = position.get(unknown) ?? -1
    return readings(text, label < 0 ? names : names.filter((_, index) => index !== label), label)
  }
  const bytes = softmax.weights.byteLength + softmax.bias.byteLength + nearest.bytes + parts.vectorizerBytes +
    parts.typedBack.bytes
  return { intents: names, read, readWithout, bytes }
}

/** Trains to the end in one go. */
export const trainIntentModel = (
  intents: ReadonlyArray<TrainingIntent>,
  options: IntentModelOptions = defaultIntentModelOptions
): IntentModel => {
  const trainer = intentTrainer(intents, options)
  while (!trainer.step(4096)) { /* keep going */ }
  return trainer.model()
}
