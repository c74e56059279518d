/**
 * The blocked-topics benchmark: `detection: examples` (`TopicClassifier`,
 * the built-in NLU trained on each topic's examples against Parley's
 * ordinary messages) next to `detection: keywords` with the topics' names
 * as the keywords (`TopicMatch`), in the same run, on CLINC150
 * (`data_full.json`, CC BY 3.0).
 *
 * Each of `SETS` rounds takes `TOPICS` in-scope intents (a seeded shuffle of
 * the 150) as blocked topics, each taught by its first 10 training
 * utterances; the test split's utterances of those intents are the traffic
 * to block, the other 145 intents' test utterances and the 1,000
 * out-of-scope test utterances the traffic to let through. Precision and
 * recall of blocking are micro-averaged over the rounds, per sensitivity.
 * Then: training time per rule and the time to judge one message (p50,
 * p99), the whole rule as a turn runs it (`topicByExamples`, cached model).
 *
 * The corpus is read from `$PARLEY_CORPUS_DIR/clinc150` (default
 * `../shared/corpus/intents`); it is not committed. No database.
 * Run with `npx tsx bench/guardrails/topics.ts`.
 */
import { existsSync } from "node:fs"
import { cpus, loadavg } from "node:os"
import { join } from "node:path"
import type { DetectorSensitivity } from "../../src/domain/aiAgents/GuardrailRule.js"
import {
  TOPIC_THRESHOLDS,
  topicByExamples,
  trainTopicClassifier
} from "../../src/domain/aiAgents/guardrails/TopicClassifier.js"
import { topicIn, wordsOf } from "../../src/domain/aiAgents/guardrails/TopicMatch.js"
import { seededRandom, shuffle } from "../../src/domain/nlu/Random.js"
import { clinc150, corpusDir } from "../nlu/Corpus.js"

const SETS = 10
const TOPICS = 5
const SHOTS = 10

if (!existsSync(join(corpusDir(), "clinc150/data_full.json"))) {
  console.error(
    `CLINC150 not found at ${join(corpusDir(), "clinc150/data_full.json")}: set PARLEY_CORPUS_DIR to a directory ` +
      "holding clinc150/data_full.json (the shared corpus, ../shared/corpus/intents, has it)."
  )
  process.exit(1)
}

const data = clinc150()
const intents = [...new Set(data.train.map((example) => example.intent))].sort()
const trainOf = (intent: string) => data.train.filter((example) => example.intent === intent).slice(0, SHOTS)
const traffic = [...data.test, ...data.oosTest]

interface Counts {
  tp: number
  fp: number
  fn: number
}
const counts = (): Counts => ({ tp: 0, fp: 0, fn: 0 })
const SENSITIVITIES: ReadonlyArray<typeof DetectorSensitivity.Type> = ["low", "medium", "high"]
const byExamples = new Map(SENSITIVITIES.map((sensitivity) => [sensitivity, counts()]))
const keywords = counts()
const tally = (into: Counts, blocked: boolean, shouldBlock: boolean) => {
  if (blocked && shouldBlock) into.tp++
  else if (blocked) into.fp++
  else if (shouldBlock) into.fn++
}
const trainingMs: Array<number> = []
const random = seededRandom(14)
let rule: ReturnType<typeof topicsOf> | undefined

function topicsOf(chosen: ReadonlyArray<string>) {
  return chosen.map((intent) => ({ name: intent.replace(/_/g, " "), examples: trainOf(intent).map((e) => e.text) }))
}

for (let set = 0; set < SETS; set++) {
  const chosen = shuffle([...intents], random).slice(0, TOPICS)
  const topics = topicsOf(chosen)
  rule ??= topics
  const started = performance.now()
  const classifier = trainTopicClassifier(topics)
  trainingMs.push(performance.now() - started)
  const names = topics.map((topic) => topic.name)
  for (const example of traffic) {
    const shouldBlock = chosen.includes(example.intent)
    const reading = classifier.read(example.text)
    for (const sensitivity of SENSITIVITIES) {
      const hit = reading !== undefined && reading.confidence >= TOPIC_THRESHOLDS[sensitivity]
      tally(byExamples.get(sensitivity)!, hit, shouldBlock)
    }
    tally(keywords, topicIn(wordsOf(example.text), names) !== undefined, shouldBlock)
  }
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`
const line = (label: string, c: Counts) => {
  const precision = c.tp / Math.max(1, c.tp + c.fp)
  const recall = c.tp / Math.max(1, c.tp + c.fn)
  console.log(
    `${label.padEnd(34)} precision ${percent(precision).padStart(6)}  recall ${percent(recall).padStart(6)}  ` +
      `(blocked right ${c.tp}, wrongly ${c.fp}, missed ${c.fn})`
  )
}

console.log(
  `CPUs: ${cpus().length} × ${cpus()[0]?.model ?? "?"}, Node ${process.version}, load ${loadavg()[0]!.toFixed(2)}`
)
console.log(
  `CLINC150: ${SETS} rounds of ${TOPICS} intents blocked (${SHOTS} examples each); per round ` +
    `${TOPICS * 30} messages to block and ${traffic.length - TOPICS * 30} to let through`
)
for (const sensitivity of SENSITIVITIES) {
  line(`examples, ${sensitivity} (≥ ${TOPIC_THRESHOLDS[sensitivity]})`, byExamples.get(sensitivity)!)
}
line("keywords (the topics' names)", keywords)

const sorted = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)
const at = (values: ReadonlyArray<number>, q: number) =>
  values[Math.min(values.length - 1, Math.floor(q * values.length))]!
const training = sorted(trainingMs)
console.log(
  `training, ${TOPICS} topics × ${SHOTS} examples + the allowed set: p50 ${at(training, 0.5).toFixed(1)} ms, ` +
    `max ${training.at(-1)!.toFixed(1)} ms`
)

// Per message: the rule as a turn runs it, its model cached after the first call.
topicByExamples(rule!, "medium", "warm up")
const samples: Array<number> = []
for (let round = 0; round < 3; round++) {
  for (const example of traffic) {
    const started = performance.now()
    topicByExamples(rule!, "medium", example.text)
    samples.push(performance.now() - started)
  }
}
const latency = sorted(samples)
console.log(
  `per message, the rule's model cached (${samples.length} judged): p50 ${(at(latency, 0.5) * 1000).toFixed(1)} µs, ` +
    `p99 ${(at(latency, 0.99) * 1000).toFixed(1)} µs`
)
// The first message of a turn reads a snapshot decoded anew: the model is found by a digest of the topics.
const decoded: Array<number> = []
for (const example of traffic.slice(0, 2000)) {
  const copy = structuredClone(rule!)
  const started = performance.now()
  topicByExamples(copy, "medium", example.text)
  decoded.push(performance.now() - started)
}
const fresh = sorted(decoded)
console.log(
  `per message, the rule decoded anew (${decoded.length} judged): p50 ${(at(fresh, 0.5) * 1000).toFixed(1)} µs, ` +
    `p99 ${(at(fresh, 0.99) * 1000).toFixed(1)} µs`
)
