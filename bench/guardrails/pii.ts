/**
 * The personal-data benchmark: `detectPii` on Presidio's synthetic evaluation
 * set (microsoft/presidio-research `data/synth_dataset_v2.json`, MIT, 1,500
 * records), scored per token as presidio-research's evaluator does, next to
 * Presidio's published figures on the same set and a plain-regex baseline
 * from this run; then the latency of one `detectPii` call per message.
 *
 * Scoring: a text's tokens are its runs of letters, marks and digits, and
 * each other non-space character alone. A token's expected type is that of
 * the annotated span covering its first character, its predicted type that
 * of the detected span covering it, or none. Per type, precision is the
 * tokens predicted as the type and annotated as it over all predicted as it,
 * recall the same over all annotated as it, F2 = 5PR / (4P + R); overall is
 * the micro average over the scored types. Scored: PERSON → person-name,
 * STREET_ADDRESS → postal-address, PHONE_NUMBER → phone, EMAIL_ADDRESS →
 * email, CREDIT_CARD → credit-card, IBAN_CODE → iban, US_SSN → ssn,
 * IP_ADDRESS → ip-address. The set's other types (GPE, ORGANIZATION,
 * DATE_TIME, TITLE, AGE, NRP, ZIP_CODE, DOMAIN_NAME, US_DRIVER_LICENSE) count
 * as no type: a detection there is a false positive. The detector runs with
 * the eight scored types at the default sensitivity (`medium`), and once
 * more at `high` for the overall figures; then with `national-id` on as well:
 * the set holds no national ids but US SSNs, so each token it takes counts
 * as a false positive in that overall figure.
 *
 * The set is read from `$PRESIDIO_SYNTH_PATH`, else the cache
 * `bench/.data/presidio/synth_dataset_v2.json` (git-ignored), else downloaded
 * there. `--errors <type>` prints missed and false spans of one type.
 * Run with `npx tsx bench/guardrails/pii.ts`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { cpus, loadavg } from "node:os"
import { dirname, join } from "node:path"
import type { PiiType } from "../../src/domain/aiAgents/GuardrailRule.js"
import { detectPii, type PiiSpan } from "../../src/domain/aiAgents/guardrails/PiiDetector.js"

const SOURCE = "https://raw.githubusercontent.com/microsoft/presidio-research/master/data/synth_dataset_v2.json"
const CACHE = join(import.meta.dirname, "../.data/presidio/synth_dataset_v2.json")
const PRESIDIO = { precision: 0.685, recall: 0.603, f2: 0.618 }
const MAPPING: Record<string, PiiType> = {
  PERSON: "person-name",
  STREET_ADDRESS: "postal-address",
  PHONE_NUMBER: "phone",
  EMAIL_ADDRESS: "email",
  CREDIT_CARD: "credit-card",
  IBAN_CODE: "iban",
  US_SSN: "ssn",
  IP_ADDRESS: "ip-address"
}
const SCORED = Object.values(MAPPING)
const ALL_TYPES: ReadonlyArray<PiiType> = [
  ...SCORED,
  "date-of-birth",
  "passport",
  "api-key",
  "national-id"
]

interface Record_ {
  readonly full_text: string
  readonly spans: ReadonlyArray<
    { readonly entity_type: string; readonly start_position: number; readonly end_position: number }
  >
}

const load = async (): Promise<ReadonlyArray<Record_>> => {
  const path = process.env.PRESIDIO_SYNTH_PATH ?? CACHE
  if (!existsSync(path)) {
    if (process.env.PRESIDIO_SYNTH_PATH !== undefined) throw new Error(`PRESIDIO_SYNTH_PATH=${path}: no such file`)
    try {
      const response = await fetch(SOURCE, { signal: AbortSignal.timeout(30_000) })
      if (!response.ok) throw new Error(`HTTP ${response.status}`)
      mkdirSync(dirname(CACHE), { recursive: true })
      writeFileSync(CACHE, await response.text())
    } catch (cause) {
      console.error(
        `Could not download Presidio's synthetic set (${String(cause)}).\n` +
          `Get ${SOURCE}\n(microsoft/presidio-research, MIT) and either set PRESIDIO_SYNTH_PATH to it or put it at\n${CACHE}`
      )
      process.exit(1)
    }
  }
  return JSON.parse(readFileSync(path, "utf8")) as ReadonlyArray<Record_>
}

// The baseline: plain patterns, no checksums, no context, no names.
const BASELINE: ReadonlyArray<readonly [PiiType, RegExp]> = [
  ["email", /[\w.+-]+@[\w-]+\.[\w.]+/g],
  ["iban", /\b[A-Z]{2}\d{2}[A-Z0-9]{10,30}\b/g],
  ["ip-address", /\b\d{1,3}(?:\.\d{1,3}){3}\b/g],
  ["ssn", /\b\d{3}-\d{2}-\d{4}\b/g],
  ["credit-card", /\b\d(?:[ -]?\d){12,18}\b/g],
  ["phone", /(?:\+\d{1,3}[ -]?)?\(?\d{3}\)?[ .-]?\d{3}[ .-]?\d{4}\b/g],
  ["postal-address", /\b\d{1,6} [A-Z][a-z]+(?: [A-Z][a-z]+)? (?:Street|St|Avenue|Ave|Road|Rd|Drive|Dr|Lane|Ln)\b/g]
]

const baseline = (text: string): ReadonlyArray<PiiSpan> => {
  const spans: Array<PiiSpan> = []
  for (const [type, pattern] of BASELINE) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index
      const end = start + match[0].length
      if (!spans.some((span) => span.start < end && start < span.end)) spans.push({ type, start, end })
    }
  }
  return spans
}

const TOKEN = /[\p{L}\p{M}\p{N}]+|[^\s\p{L}\p{M}\p{N}]/gu

const typeAt = (spans: ReadonlyArray<{ type: string; start: number; end: number }>, offset: number) =>
  spans.find((span) => span.start <= offset && offset < span.end)?.type

interface Tally {
  truePositives: number
  predicted: number
  annotated: number
}

const score = (records: ReadonlyArray<Record_>, detect: (text: string) => ReadonlyArray<PiiSpan>) => {
  const tallies = new Map<string, Tally>(SCORED.map((type) => [type, { truePositives: 0, predicted: 0, annotated: 0 }]))
  // A type the set does not label (national-id) is only ever predicted: its tokens are false positives.
  const tallyOf = (type: string): Tally => {
    const known = tallies.get(type)
    if (known !== undefined) return known
    const tally = { truePositives: 0, predicted: 0, annotated: 0 }
    tallies.set(type, tally)
    return tally
  }
  for (const record of records) {
    const gold = record.spans.flatMap((span) => {
      const type = MAPPING[span.entity_type]
      return type === undefined ? [] : [{ type, start: span.start_position, end: span.end_position }]
    })
    const predicted = detect(record.full_text)
    for (const token of record.full_text.matchAll(TOKEN)) {
      const expected = typeAt(gold, token.index)
      const got = typeAt(predicted, token.index)
      if (expected !== undefined) tallies.get(expected)!.annotated++
      if (got !== undefined) tallyOf(got).predicted++
      if (got !== undefined && got === expected) tallyOf(got).truePositives++
    }
  }
  const figures = (tally: Tally) => {
    const precision = tally.predicted === 0 ? 0 : tally.truePositives / tally.predicted
    const recall = tally.annotated === 0 ? 0 : tally.truePositives / tally.annotated
    const f2 = precision + recall === 0 ? 0 : (5 * precision * recall) / (4 * precision + recall)
    return { precision, recall, f2, tokens: tally.annotated }
  }
  const total = [...tallies.values()].reduce(
    (sum, tally) => ({
      truePositives: sum.truePositives + tally.truePositives,
      predicted: sum.predicted + tally.predicted,
      annotated: sum.annotated + tally.annotated
    }),
    { truePositives: 0, predicted: 0, annotated: 0 }
  )
  return { perType: new Map([...tallies].map(([type, tally]) => [type, figures(tally)])), overall: figures(total) }
}

const printErrors = (records: ReadonlyArray<Record_>, type: PiiType) => {
  const missed: Array<string> = []
  const wrong: Array<string> = []
  for (const record of records) {
    const text = record.full_text
    const gold = record.spans.filter((span) => MAPPING[span.entity_type] === type)
    const found = detectPii(text, SCORED).filter((span) => span.type === type)
    for (const span of gold) {
      if (!found.some((f) => f.start < span.end_position && span.start_position < f.end)) {
        missed.push(
          `${JSON.stringify(text.slice(span.start_position, span.end_position))}  in  ${
            JSON.stringify(text.slice(0, 160))
          }`
        )
      }
    }
    for (const span of found) {
      const overlap = record.spans.filter((g) => g.start_position < span.end && span.start < g.end_position)
      if (!overlap.some((g) => MAPPING[g.entity_type] === type)) {
        wrong.push(
          `${JSON.stringify(text.slice(span.start, span.end))} (${
            overlap.map((g) => g.entity_type).join(",") || "O"
          })  in  ${JSON.stringify(text.slice(0, 160))}`
        )
      }
    }
  }
  console.log(`missed ${type} (${missed.length}):\n  ${missed.slice(0, 40).join("\n  ")}`)
  console.log(`false ${type} (${wrong.length}):\n  ${wrong.slice(0, 40).join("\n  ")}`)
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!

const records = await load()
const errorsFor = process.argv.indexOf("--errors")
if (errorsFor >= 0) {
  printErrors(records, process.argv[errorsFor + 1] as PiiType)
  process.exit(0)
}

const ours = score(records, (text) => detectPii(text, SCORED))
const plain = score(records, baseline)
const fmt = (x: number) => x.toFixed(3)
console.log(`Presidio synthetic set: ${records.length} records; token-level scores (see the header for the method)`)
console.log(
  `${"type".padEnd(16)}${"tokens".padStart(7)}   ${"detectPii P / R / F2".padEnd(24)}${"baseline P / R / F2"}`
)
for (const type of SCORED) {
  const a = ours.perType.get(type)!
  const b = plain.perType.get(type)!
  console.log(
    `${type.padEnd(16)}${String(a.tokens).padStart(7)}   ${
      `${fmt(a.precision)} / ${fmt(a.recall)} / ${fmt(a.f2)}`.padEnd(24)
    }${fmt(b.precision)} / ${fmt(b.recall)} / ${fmt(b.f2)}`
  )
}
const o = ours.overall
const b = plain.overall
console.log(
  `${"overall (micro)".padEnd(16)}${String(o.tokens).padStart(7)}   ${
    `${fmt(o.precision)} / ${fmt(o.recall)} / ${fmt(o.f2)}`.padEnd(24)
  }${fmt(b.precision)} / ${fmt(b.recall)} / ${fmt(b.f2)}`
)
const eager = score(records, (text) => detectPii(text, SCORED, "high")).overall
console.log(
  `${"at high".padEnd(16)}${"".padStart(7)}   ${fmt(eager.precision)} / ${fmt(eager.recall)} / ${
    fmt(eager.f2)
  } (sensitivity "high": capitalised pairs count as names)`
)
const withIds = score(records, (text) => detectPii(text, [...SCORED, "national-id"]))
const idSpans = records.reduce(
  (count, record) => count + detectPii(record.full_text, ["national-id"]).length,
  0
)
console.log(
  `${"+ national-id".padEnd(16)}${"".padStart(7)}   ${fmt(withIds.overall.precision)} / ${
    fmt(withIds.overall.recall)
  } / ${fmt(withIds.overall.f2)} (national-id on too: ${idSpans} spans found alone, each a false alarm on this set)`
)
console.log(
  `Presidio analyzer (published, this set): ${fmt(PRESIDIO.precision)} / ${fmt(PRESIDIO.recall)} / ${fmt(PRESIDIO.f2)}`
)
console.log(`overall F2 ${fmt(o.f2)} (target >= 0.70: ${o.f2 >= 0.7 ? "PASS" : "FAIL"})`)

const WARM_UP = 2
const PASSES = 5
for (let pass = 0; pass < WARM_UP; pass++) for (const record of records) detectPii(record.full_text, ALL_TYPES)
const times: Array<number> = []
const short: Array<number> = []
for (let pass = 0; pass < PASSES; pass++) {
  for (const record of records) {
    const started = performance.now()
    detectPii(record.full_text, ALL_TYPES)
    const took = performance.now() - started
    times.push(took)
    if (record.full_text.length <= 300) short.push(took)
  }
}
times.sort((x, y) => x - y)
short.sort((x, y) => x - y)
console.log(
  `latency, all ${ALL_TYPES.length} types, ${PASSES} passes after ${WARM_UP} warm-up: p50 ${
    fmt(percentile(times, 0.5))
  } ms, p99 ${fmt(percentile(times, 0.99))} ms; ` +
    `messages <= 300 chars (${short.length / PASSES}) p50 ${fmt(percentile(short, 0.5))} ms, p99 ${
      fmt(percentile(short, 0.99))
    } ms ` +
    `(target p50 <= 1 ms: ${percentile(short, 0.5) <= 1 ? "PASS" : "FAIL"})`
)
console.log(
  `${cpus().length} x ${cpus()[0]?.model ?? "CPU"}, load average ${loadavg()[0]!.toFixed(1)}, Node ${process.version}`
)
