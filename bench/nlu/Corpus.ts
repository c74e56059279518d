/**
 * The intent corpora the NLU benchmark reads from `../shared/corpus/intents`
 * (or `PARLEY_CORPUS_DIR`): CLINC150's `data_full.json` and BANKING77's CSVs.
 */
import { readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { csvRows } from "../support/Csv.js"

export interface Example {
  readonly text: string
  readonly intent: string
}

export const corpusDir = (): string =>
  resolve(process.env.PARLEY_CORPUS_DIR ?? join(import.meta.dirname, "../../../shared/corpus/intents"))

const pairs = (rows: ReadonlyArray<readonly [string, string]>): Array<Example> =>
  rows.map(([text, intent]) => ({ text, intent }))

export interface Clinc150 {
  readonly train: Array<Example>
  readonly oosTrain: Array<Example>
  readonly val: Array<Example>
  readonly oosVal: Array<Example>
  readonly test: Array<Example>
  readonly oosTest: Array<Example>
}

export const clinc150 = (): Clinc150 => {
  const data = JSON.parse(readFileSync(join(corpusDir(), "clinc150/data_full.json"), "utf8")) as Record<
    string,
    Array<[string, string]>
  >
  return {
    train: pairs(data.train!),
    oosTrain: pairs(data.oos_train!),
    val: pairs(data.val!),
    oosVal: pairs(data.oos_val!),
    test: pairs(data.test!),
    oosTest: pairs(data.oos_test!)
  }
}

const bankingSplit = (name: string): Array<Example> =>
  csvRows(readFileSync(join(corpusDir(), `banking77/${name}.csv`), "utf8"))
    .slice(1)
    .map(([text, intent]) => ({ text: text!, intent: intent! }))

export const banking77 = () => ({ train: bankingSplit("train"), test: bankingSplit("test") })
