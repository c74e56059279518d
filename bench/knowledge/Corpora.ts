/**
 * The retrieval benchmark's data: BANKING77 as an FAQ (each intent's first
 * ten training utterances one document; the test utterances the queries)
 * and PubMedQA's labelled set (each question's contexts one document; the
 * question the query). Neither is committed: BANKING77 is read from the
 * shared corpus (`$BANKING77_DIR`, else `../shared/corpus/intents/banking77`);
 * PubMedQA from `$PUBMEDQA_PATH`, else the git-ignored cache
 * `bench/.data/pubmedqa/ori_pqal.json`, else downloaded into that cache.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import { csvRows } from "../support/Csv.js"

/** A corpus: documents by key, and queries that each have one right document. */
export interface Corpus {
  readonly name: string
  readonly documents: ReadonlyArray<{ readonly key: string; readonly title: string; readonly text: string }>
  readonly queries: ReadonlyArray<{ readonly text: string; readonly answer: string }>
}

/** The rows of a two-column CSV with a header (`text,category`), without the header. */
const pairs = (text: string): Array<[string, string]> =>
  csvRows(text).slice(1).filter((cells) => cells.length === 2) as Array<[string, string]>

/**
 * BANKING77 as an FAQ. The queries are the test split's utterances, or with `split: "held-out"` the
 * training utterances that are not in the documents: the split the ranking's parameters are tuned
 * on, so that the test queries the benchmark reports never choose them.
 */
export const banking77 = (split: "test" | "held-out" = "test", perIntent = 10): Corpus => {
  const dir = process.env["BANKING77_DIR"] ?? Path.resolve("../shared/corpus/intents/banking77")
  const train = pairs(Fs.readFileSync(Path.join(dir, "train.csv"), "utf8"))
  const byIntent = new Map<string, Array<string>>()
  const heldOut: Array<[string, string]> = []
  for (const [text, intent] of train) {
    const list = byIntent.get(intent) ?? []
    if (list.length < perIntent) list.push(text.trim())
    else heldOut.push([text, intent])
    byIntent.set(intent, list)
  }
  const test = split === "test" ? pairs(Fs.readFileSync(Path.join(dir, "test.csv"), "utf8")) : heldOut
  return {
    name: split === "test" ? "BANKING77 FAQ" : "BANKING77 FAQ, held-out training utterances",
    documents: [...byIntent].map(([intent, utterances]) => ({
      key: intent,
      title: intent.replace(/_/g, " "),
      text: utterances.join("\n\n")
    })),
    queries: test.map(([text, intent]) => ({ text, answer: intent }))
  }
}

const PUBMEDQA_URL = "https://raw.githubusercontent.com/pubmedqa/pubmedqa/master/data/ori_pqal.json"

export const pubmedqa = async (): Promise<Corpus> => {
  const cache = Path.resolve("bench/.data/pubmedqa/ori_pqal.json")
  let path = process.env["PUBMEDQA_PATH"] ?? cache
  if (!Fs.existsSync(path)) {
    const response = await fetch(PUBMEDQA_URL)
    if (!response.ok) throw new Error(`PubMedQA: ${PUBMEDQA_URL} answered ${response.status}; set PUBMEDQA_PATH`)
    Fs.mkdirSync(Path.dirname(cache), { recursive: true })
    Fs.writeFileSync(cache, await response.text())
    path = cache
  }
  const data = JSON.parse(Fs.readFileSync(path, "utf8")) as Record<
    string,
    { QUESTION: string; CONTEXTS: Array<string> }
  >
  const entries = Object.entries(data)
  return {
    name: "PubMedQA (pqa-labeled)",
    documents: entries.map(([id, entry]) => ({ key: id, title: `PMID ${id}`, text: entry.CONTEXTS.join("\n\n") })),
    queries: entries.map(([id, entry]) => ({ text: entry.QUESTION, answer: id }))
  }
}
