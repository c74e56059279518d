/**
 * The NLU benchmark: the built-in classifier (`src/domain/nlu`) on CLINC150
 * (`data_full.json`) and BANKING77, next to the previous built-in
 * `TokenClassifier` measured in the same run and the published figures.
 *
 * CLINC150: trained on `train` (the built-in also once with `oos_train` as an
 * out-of-scope class); the threshold tuned on `val` + `oos_val` (most
 * messages right); in-scope accuracy on `test`, out-of-scope recall on
 * `oos_test`. BANKING77 has no validation split and no out-of-scope
 * messages: trained on `train.csv`, accuracy on `test.csv` with no threshold.
 * Latency is one `classify` call among all intents, as an intent router
 * makes it: wall-clock p50 and p99, and the p99 of the CPU time it used
 * (on a shared machine the wall-clock tail is mostly other processes),
 * measured after a warm-up (CLINC150's validation pass; 1,000 BANKING77
 * training messages).
 * Few-shot (`FewShot`): 5 and 10 examples per intent sampled from each
 * corpus's training split, at the automatic threshold chosen from the
 * sample's own cross-validation, next to no threshold and the former 0.5.
 * Run with `npm run bench:nlu` (`npm run bench:nlu -- --few-shot` for the
 * few-shot figures alone).
 */
import { Effect } from "effect"
import { cpus, loadavg } from "node:os"
import { intentClassifier } from "../../src/domain/nlu/IntentClassifier.js"
import { defaultIntentModelOptions, intentTrainer, type TrainingIntent } from "../../src/domain/nlu/IntentModel.js"
import type { Classifier } from "../../src/domain/runtime/engine/Classifier.js"
import { makeTokenClassifier } from "../../src/domain/runtime/engine/TokenClassifier.js"
import { banking77, clinc150, type Example } from "./Corpus.js"
import { inScopeAccuracy, outOfScopeRecall, percentile, predict, tuneThreshold } from "./Evaluation.js"
import { fewShot, SAMPLE_SEED } from "./FewShot.js"

const intentsOf = (examples: ReadonlyArray<Example>): Array<TrainingIntent> => {
  const byName = new Map<string, Array<string>>()
  for (const { intent, text } of examples) byName.set(intent, [...(byName.get(intent) ?? []), text])
  return [...byName].map(([name, utterances]) => ({ name, utterances }))
}

const timed = <A>(build: () => A): [A, number] => {
  const started = performance.now()
  const value = build()
  return [value, (performance.now() - started) / 1000]
}

type Build = (intents: ReadonlyArray<TrainingIntent>) => Classifier

const builtin = (outOfScope: ReadonlyArray<string> = []): Build => (intents) => {
  const trainer = intentTrainer(intents, { ...defaultIntentModelOptions, outOfScope })
  while (!trainer.step(4096)) { /* train to the end */ }
  return intentClassifier(trainer.model())
}

const baseline: Build = (intents) => {
  const classifier = makeTokenClassifier(intents)
  Effect.runSync(classifier.classify("warm up", [])) // its index is built on construction; this only warms the JIT
  return classifier
}

const pct = (value: number) => `${(value * 100).toFixed(1)}%`.padStart(6)
const ms = (value: number) => `${value.toFixed(3)} ms`

const row = (cells: ReadonlyArray<string>) => console.log(`| ${cells.join(" | ")} |`)

const clincRun = (name: string, build: Build, data = clinc150()) => {
  const intents = intentsOf(data.train)
  const names = intents.map((intent) => intent.name)
  const [classifier, seconds] = timed(() => build(intents))
  const threshold = tuneThreshold(predict(classifier, names, data.val), predict(classifier, names, data.oosVal))
  const test = predict(classifier, names, data.test)
  const oos = predict(classifier, names, data.oosTest)
  const latencies = [...test, ...oos].map((p) => p.milliseconds)
  const cpu = [...test, ...oos].map((p) => p.cpuMilliseconds)
  row([
    name,
    pct(inScopeAccuracy(test, threshold)),
    pct(outOfScopeRecall(oos, threshold)),
    threshold.toFixed(3),
    pct(inScopeAccuracy(test, 0)),
    `${pct(inScopeAccuracy(test, 0.5))} /${pct(outOfScopeRecall(oos, 0.5))}`,
    `${seconds.toFixed(1)} s`,
    ms(percentile(latencies, 0.5)),
    ms(percentile(latencies, 0.99)),
    ms(percentile(cpu, 0.99))
  ])
}

const bankingRun = (name: string, build: Build, data = banking77()) => {
  const intents = intentsOf(data.train)
  const names = intents.map((intent) => intent.name)
  const [classifier, seconds] = timed(() => build(intents))
  predict(classifier, names, data.train.slice(0, 1000)) // warm-up, as CLINC150's validation pass is
  const test = predict(classifier, names, data.test)
  const latencies = test.map((p) => p.milliseconds)
  row([
    name,
    pct(inScopeAccuracy(test, 0)),
    `${seconds.toFixed(1)} s`,
    ms(percentile(latencies, 0.5)),
    ms(percentile(latencies, 0.99)),
    ms(percentile(test.map((p) => p.cpuMilliseconds), 0.99))
  ])
}

console.log(
  `NLU benchmark: ${cpus().length} CPUs (${cpus()[0]?.model ?? "?"}), Node ${process.version}, ` +
    `load average ${loadavg().map((load) => load.toFixed(1)).join(" ")}\n`
)
const clinc = clinc150()
const banking = banking77()
const fewShotOnly = process.argv.includes("--few-shot")

const fewShotRuns = () => {
  console.log(
    `\nFew-shot (sample seed ${SAMPLE_SEED}): k examples per intent from train; test (and oos_test) as above; ` +
      "the automatic threshold is chosen from the sample's own cross-validation (highest keeping 90% of its right answers)\n"
  )
  row([
    "corpus, shots",
    "threshold",
    "expected acc / oos recall (CV)",
    "acc at threshold",
    "acc, no threshold",
    "kept",
    "oos recall at threshold",
    "at 0.5: acc / recall",
    "train + CV"
  ])
  row(["---", "---", "---", "---", "---", "---", "---", "---", "---"])
  const runs = [
    ["BANKING77", intentsOf(banking.train), banking.test, undefined],
    ["CLINC150", intentsOf(clinc.train), clinc.test, clinc.oosTest]
  ] as const
  for (const [name, intents, test, oos] of runs) {
    for (const shots of [5, 10]) {
      const figures = fewShot(intents, shots, test, oos)
      row([
        `${name}, ${shots}`,
        figures.threshold.toFixed(3),
        `${pct(figures.expectedAccuracy)} /${pct(figures.expectedRecall)}`,
        pct(figures.accuracyAt),
        pct(figures.accuracyNone),
        pct(figures.accuracyAt / Math.max(1e-9, figures.accuracyNone)),
        figures.recallAt === undefined ? "" : pct(figures.recallAt),
        `${pct(figures.accuracyAtHalf)} /${figures.recallAtHalf === undefined ? "" : pct(figures.recallAtHalf)}`,
        `${figures.seconds.toFixed(1)} s`
      ])
    }
  }
  console.log(
    "\nPublished 10-shot BANKING77 (Casanueva et al. 2020): USE+ConveRT 85.19 (no out-of-scope). " +
      "Targets: 10-shot BANKING77 >= 79%; at the chosen threshold >= 90% of that accuracy kept, CLINC150 oos recall >= 50%."
  )
}

if (fewShotOnly) fewShotRuns()
else {
  console.log(
    `CLINC150 data_full: ${clinc.train.length} train (+${clinc.oosTrain.length} oos_train), threshold on ` +
      `${clinc.val.length} val + ${clinc.oosVal.length} oos_val, ${clinc.test.length} test + ${clinc.oosTest.length} oos_test\n`
  )
  row([
    "classifier",
    "in-scope acc",
    "oos recall",
    "threshold",
    "acc, no threshold",
    "at 0.5 (default): acc / recall",
    "training",
    "p50",
    "p99",
    "p99 CPU"
  ])
  row(["---", "---", "---", "---", "---", "---", "---", "---", "---", "---"])
  clincRun("built-in (train)", builtin(), clinc)
  clincRun("built-in (train + oos_train)", builtin(clinc.oosTrain.map((e) => e.text)), clinc)
  clincRun("baseline: TokenClassifier", baseline, clinc)
  console.log(
    "\nPublished (Larson et al. 2019, data_full, oos-train / oos-threshold): SVM 91.0/14.5, 88.2/18.0; " +
      "Rasa 91.5/45.3, 90.9/31.2; DialogFlow 91.7/14.0, 90.8/26.7; BERT 96.9/40.3, 96.2/52.3."
  )
  console.log("Targets: in-scope accuracy >= 91.5%, oos recall >= 30%, training < 60 s, p99 < 1 ms.\n")
  console.log(`BANKING77: ${banking.train.length} train, ${banking.test.length} test, no threshold\n`)
  row(["classifier", "accuracy", "training", "p50", "p99", "p99 CPU"])
  row(["---", "---", "---", "---", "---", "---"])
  bankingRun("built-in", builtin(), banking)
  bankingRun("baseline: TokenClassifier", baseline, banking)
  console.log("\nPublished (Casanueva et al. 2020): BERT-Large fine-tuned 93.66, USE+ConveRT 93.36.")
  fewShotRuns()
}
