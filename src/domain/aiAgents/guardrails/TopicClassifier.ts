/**
 * Blocked topics by examples: the built-in intent model (`IntentModel`:
 * TF-IDF features, softmax regression, nearest-example similarity) trained
 * on the topics' examples, one class each, against `ALLOWED_MESSAGES` as a
 * class of ordinary requests. A text is on a topic when the model's
 * confidence for it (the geometric mean of the topic's probability and the
 * text's similarity to its nearest example) reaches the sensitivity's
 * threshold. A text is read sentence by sentence, and whole when it has
 * several, so one sentence on a topic inside a long message still counts.
 *
 * Training is deterministic (the model's seed, features numbered in order of
 * first sight), so the same topics give the same verdicts on every node.
 * A model is trained once per distinct set of topics and kept in a small
 * per-node cache (`topicClassifierFor`), never per message. Training takes
 * about 50 ms for a typical rule and up to about a second for the largest
 * (20 topics, 500 examples), so a turn trains it beforehand in slices that
 * leave the node responsive (`topicTraining`, run by `TopicJudge.warm`); the
 * judgement itself, which must be synchronous, then finds it cached.
 */
import { createHash } from "node:crypto"
import { LruCache } from "../../LruCache.js"
import { defaultIntentModelOptions, type IntentModel, intentTrainer, trainIntentModel } from "../../nlu/IntentModel.js"
import type { BlockedTopicsRule, DetectorSensitivity, TopicByExamples } from "../GuardrailRule.js"
import { ALLOWED_MESSAGES } from "./AllowedMessages.js"

/** A topic with its examples, as the classifier learns it. */
export type ExampleTopic = typeof TopicByExamples.Type

/** A rule's topics; phrases among them (not allowed by examples detection) are ignored. */
export type RuleTopics = (typeof BlockedTopicsRule.Type)["topics"]

const withExamples = (topics: RuleTopics): ReadonlyArray<ExampleTopic> =>
  topics.filter((topic): topic is ExampleTopic => typeof topic !== "string")

/**
 * The confidence a text needs to be on a topic, by sensitivity; chosen on
 * CLINC150 (`npm run bench:topics`, `bench/guardrails/topics.ts`).
 */
export const TOPIC_THRESHOLDS: Readonly<Record<typeof DetectorSensitivity.Type, number>> = {
  low: 0.6,
  medium: 0.45,
  high: 0.3
}

/** The most topic-like part of a text: the topic and its confidence. */
export interface TopicReading {
  readonly topic: string
  readonly confidence: number
}

export interface TopicClassifier {
  /** The topic `text` (or one of its sentences) reads most as, with its confidence; undefined for an empty text. */
  readonly read: (text: string) => TopicReading | undefined
  /** About the bytes the model keeps. */
  readonly bytes: number
}

/** The longest text read; a longer one is read to here. */
const READ_CHARS = 4000

/** A text's sentences (at least one word each), and the whole when it has several. */
export const sentencesOf = (text: string): ReadonlyArray<string> => {
  const clipped = text.length <= READ_CHARS ? text : text.slice(0, READ_CHARS)
  const sentences = clipped.split(/(?<=[.!?;:])\s+|\n+/u).filter((sentence) => /[\p{L}\p{N}]/u.test(sentence))
  return sentences.length > 1 ? [...sentences, clipped] : sentences
}

const classifierOf = (model: IntentModel): TopicClassifier => ({
  read: (text) => {
    let best: TopicReading | undefined
    for (const sentence of sentencesOf(text)) {
      const top = model.read(sentence)[0]
      if (top !== undefined && (best === undefined || top.confidence > best.confidence)) {
        best = { topic: top.intent, confidence: top.confidence }
      }
    }
    return best
  },
  bytes: model.bytes
})

const intentsOf = (topics: RuleTopics) =>
  withExamples(topics).map((topic) => ({ name: topic.name, utterances: topic.examples }))

const OPTIONS = { ...defaultIntentModelOptions, outOfScope: ALLOWED_MESSAGES }

/** Trains the classifier of `topics` in one go. */
export const trainTopicClassifier = (topics: RuleTopics): TopicClassifier =>
  classifierOf(trainIntentModel(intentsOf(topics), OPTIONS))

/**
 * The bytes of trained classifiers a node keeps, most recently used first
 * (a rule of 5 topics × 10 examples keeps about 0.6 MB, the largest rule
 * about 3 MB).
 */
export const TOPIC_CACHE_BYTES = 64 * 1024 * 1024

const byContent = new LruCache<TopicClassifier>(TOPIC_CACHE_BYTES, (classifier) => classifier.bytes)
const byArray = new WeakMap<RuleTopics, TopicClassifier>()

const keyOf = (topics: RuleTopics) => {
  const content = withExamples(topics).map((topic) => [topic.name, topic.examples])
  return createHash("sha256").update(JSON.stringify(content)).digest("base64url")
}

/** Keeps `classifier` as the most recently used, dropping the least recently used past `TOPIC_CACHE_BYTES`. */
const keep = (topics: RuleTopics, key: string, classifier: TopicClassifier): TopicClassifier => {
  byContent.set(key, classifier)
  byArray.set(topics, classifier)
  return classifier
}

/** The cached classifier of `topics`, if this node has trained it (by the array itself, then by content). */
const cached = (topics: RuleTopics): TopicClassifier | undefined => {
  const known = byArray.get(topics)
  if (known !== undefined) return known
  const key = keyOf(topics)
  const classifier = byContent.get(key)
  return classifier === undefined ? undefined : keep(topics, key, classifier)
}

/**
 * The classifier of `topics`, trained here and now if this node has not
 * trained it yet, and kept: by the array itself (a snapshot read once
 * serves a whole reply) and by a digest of its content, so a guardrail
 * revision is trained once per node however often its snapshot is read.
 */
export const topicClassifierFor = (topics: RuleTopics): TopicClassifier =>
  cached(topics) ?? keep(topics, keyOf(topics), trainTopicClassifier(topics))

/**
 * The training of `topics`' classifier as steps of `budget` example updates
 * (`step` says when it is done and the classifier kept), or undefined when
 * it is cached already.
 */
export const topicTraining = (
  topics: RuleTopics
): { readonly step: (budget: number) => boolean } | undefined => {
  if (cached(topics) !== undefined) return undefined
  const trainer = intentTrainer(intentsOf(topics), OPTIONS)
  return {
    step: (budget) => {
      if (!trainer.step(budget)) return false
      keep(topics, keyOf(topics), classifierOf(trainer.model()))
      return true
    }
  }
}

/** The topic `text` is on at `sensitivity`, or undefined. */
export const topicByExamples = (
  topics: RuleTopics,
  sensitivity: typeof DetectorSensitivity.Type,
  text: string
): TopicReading | undefined => {
  const reading = topicClassifierFor(topics).read(text)
  return reading !== undefined && reading.confidence >= TOPIC_THRESHOLDS[sensitivity] ? reading : undefined
}
