/**
 * The jailbreak and prompt-injection benchmark: on the test split of
 * `InjectionData.ts` (never trained on, and no near-duplicate of a training
 * prompt), the precision, recall, F1 and false-positive rate on ordinary
 * prompts of the built-in patterns alone (`injectionMatch`, the detector
 * before the classifier, run here as the baseline), the shipped classifier
 * alone (`injectionClassified`) and both together (what a rule does: either
 * one fires), for each rule kind at each sensitivity; then the false alarms
 * per ordinary source and the recall per attack source at `medium`; then the
 * time one classification takes on a 500-character message and on an
 * 8,000-character tool-result window, next to the patterns' on the same text.
 *
 * The data is read from `$PARLEY_INJECTION_DATA` (fill it with
 * `bash scripts/injection-data.sh <dir>`); without it the benchmark says so
 * and exits. Run with `PARLEY_INJECTION_DATA=<dir> npx tsx bench/guardrails/injection.ts`.
 */
import { cpus, loadavg } from "node:os"
import { injectionClassified, injectionProbability } from "../../src/domain/aiAgents/guardrails/InjectionClassifier.js"
import { injectionMatch, type Sensitivity } from "../../src/domain/aiAgents/guardrails/InjectionPatterns.js"
import { dataDirectory, type Example, loadExamples, loadToolResults, splitExamples } from "./InjectionData.js"

type Kind = "jailbreak" | "prompt-injection"
const KINDS: ReadonlyArray<Kind> = ["jailbreak", "prompt-injection"]
const SENSITIVITIES: ReadonlyArray<Sensitivity> = ["low", "medium", "high"]

interface Counts {
  tp: number
  fp: number
  fn: number
  tn: number
}

const score = (examples: ReadonlyArray<Example>, flags: (text: string) => boolean): Counts => {
  const counts: Counts = { tp: 0, fp: 0, fn: 0, tn: 0 }
  for (const example of examples) {
    const flagged = flags(example.text)
    if (example.label === 1 && flagged) counts.tp++
    else if (example.label === 1) counts.fn++
    else if (flagged) counts.fp++
    else counts.tn++
  }
  return counts
}

const figures = ({ fn, fp, tn, tp }: Counts) => {
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp)
  const recall = tp / (tp + fn)
  const f1 = precision + recall === 0 ? 0 : 2 * precision * recall / (precision + recall)
  return { precision, recall, f1, fpr: fp / (fp + tn) }
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!

/**
 * Microseconds per call of `run` on `texts`: wall-clock p50 and p99 over `rounds` passes, after a
 * warm-up, and the process's mean CPU time per call (less moved by what else the machine runs).
 */
const timing = (texts: ReadonlyArray<string>, run: (text: string) => unknown, rounds = 5) => {
  for (const text of texts) run(text)
  const samples: Array<number> = []
  const cpu = process.cpuUsage()
  for (let round = 0; round < rounds; round++) {
    for (const text of texts) {
      const started = performance.now()
      run(text)
      samples.push((performance.now() - started) * 1000)
    }
  }
  const { system, user } = process.cpuUsage(cpu)
  samples.sort((a, b) => a - b)
  return `p50 ${percentile(samples, 0.5).toFixed(0)} µs, p99 ${percentile(samples, 0.99).toFixed(0)} µs, ` +
    `CPU ${((user + system) / samples.length).toFixed(0)} µs per call`
}

const main = () => {
  const dir = dataDirectory()
  const examples = loadExamples(dir)
  const { dropped, test, train, validation } = splitExamples(examples)
  const attacks = test.filter((example) => example.label === 1)
  const ordinary = test.filter((example) => example.label === 0)
  console.log(
    `injection classifier benchmark — ${cpus().length} CPUs (${cpus()[0]?.model}), Node ${process.version}, ` +
      `load average ${loadavg()[0]!.toFixed(1)}`
  )
  console.log(
    `data ${dir}: ${examples.length} prompts, ${dropped} dropped as duplicates; split train ${train.length}, ` +
      `validation ${validation.length}, test ${test.length} (${attacks.length} attacks, ${ordinary.length} ordinary)`
  )
  console.log("\nTEST split: precision / recall / F1 / false-positive rate on ordinary prompts")
  console.log("rule              sensitivity  detector     precision  recall  F1     FPR")
  const line = (kind: string, sensitivity: string, detector: string, counts: Counts) => {
    const { f1, fpr, precision, recall } = figures(counts)
    console.log(
      `${kind.padEnd(18)}${sensitivity.padEnd(13)}${detector.padEnd(13)}${precision.toFixed(3).padEnd(11)}` +
        `${recall.toFixed(3).padEnd(8)}${f1.toFixed(3).padEnd(7)}${(fpr * 100).toFixed(2)}%`
    )
  }
  for (const kind of KINDS) {
    for (const sensitivity of SENSITIVITIES) {
      const pattern = (text: string) => injectionMatch(kind, sensitivity, [], text) !== undefined
      const classifier = (text: string) => injectionClassified(sensitivity, text) !== undefined
      line(kind, sensitivity, "patterns", score(test, pattern))
      line(kind, sensitivity, "classifier", score(test, classifier))
      line(kind, sensitivity, "combined", score(test, (text) => pattern(text) || classifier(text)))
    }
  }

  console.log("\nat medium, per source of the TEST split (combined = both rules' patterns or the classifier)")
  const sources = [...new Set(test.map((example) => example.source))]
  for (const source of sources) {
    const of = test.filter((example) => example.source === source)
    const flagged = (detector: (text: string) => boolean) => of.filter((example) => detector(example.text)).length
    const patterns = flagged((text) => KINDS.some((kind) => injectionMatch(kind, "medium", [], text) !== undefined))
    const classifier = flagged((text) => injectionClassified("medium", text) !== undefined)
    const combined = flagged((text) =>
      injectionClassified("medium", text) !== undefined ||
      KINDS.some((kind) => injectionMatch(kind, "medium", [], text) !== undefined)
    )
    const what = of[0]!.label === 1 ? "attacks caught" : "false alarms"
    console.log(
      `${source.padEnd(20)} ${String(of.length).padStart(5)} ${what.padEnd(15)} patterns ${patterns}, ` +
        `classifier ${classifier}, combined ${combined}`
    )
  }

  const tables = loadToolResults(dir)
  console.log(
    `\nordinary tool results: ${tables.length} BIPIA tables (never trained on), flagged by the prompt-injection rule`
  )
  for (const sensitivity of SENSITIVITIES) {
    const patterns = tables.filter((text) => injectionMatch("prompt-injection", sensitivity, [], text) !== undefined)
    const classifier = tables.filter((text) => injectionClassified(sensitivity, text) !== undefined)
    console.log(`  ${sensitivity.padEnd(7)} patterns ${patterns.length}, classifier ${classifier.length}`)
  }

  // 500-character messages and 8,000-character windows cut from the test split's texts, one after another.
  const all = test.map((example) => example.text).join("\n")
  const cut = (size: number, count: number) =>
    Array.from({ length: count }, (_, index) => all.slice(index * size, index * size + size))
  const messages = cut(500, 1_000)
  const windows = cut(8_000, 60)
  console.log(
    `\nlatency per call (${messages.length} texts of 500 characters and ${windows.length} of 8,000, 5 passes each)`
  )
  console.log(`  classifier, 500 chars:  ${timing(messages, injectionProbability)}`)
  console.log(
    `  patterns (both rules, high), 500 chars: ${
      timing(messages, (text) => KINDS.map((kind) => injectionMatch(kind, "high", [], text)))
    }`
  )
  console.log(`  classifier, 8,000 chars: ${timing(windows, injectionProbability)}`)
  console.log(
    `  patterns (both rules, high), 8,000 chars: ${
      timing(windows, (text) => KINDS.map((kind) => injectionMatch(kind, "high", [], text)))
    }`
  )
}

main()
