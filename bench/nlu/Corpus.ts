/**
 * The intent corpora the NLU benchmark reads from `../shared/corpus/intents`
 * (or `PARLEY_CORPUS_DIR`): CLINC150's `data_full.json` and BANKING77's CSVs.
 */
import { readFileSync } from "node:fs"
import { join, resolve } from "node:path"

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

/** Parses the BANKING77 CSV (`text,category`, RFC 4180 quoting). */
const csvRows = (source: string): Array<Array<string>> => {
  const rows: Array<Array<string>> = []
  let row: Array<string> = []
  let field = ""
  let quoted = false
  for (let index = 0; index < source.length; index++) {
    const char = source[index]!
    if (quoted) {
      if (char === "\"" && source[index + 1] === "\"") {
        field += "\""
        index++
      } else if (char === "\"") quoted = false
      else field += char
    } else if (char === "\"") quoted = true
    else if (char === ",") {
      row.push(field)
      field = ""
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && source[index + 1] === "\n") index++
      row.push(field)
      if (row.some((cell) => cell.length > 0)) rows.push(row)
      row = []
      field = ""
    } else field += char
  }
  row.push(field)
  if (row.some((cell) => cell.length > 0)) rows.push(row)
  return rows
}

const bankingSplit = (name: string): Array<Example> =>
  csvRows(readFileSync(join(corpusDir(), `banking77/${name}.csv`), "utf8"))
    .slice(1)
    .map(([text, intent]) => ({ text: text!, intent: intent! }))

export const banking77 = () => ({ train: bankingSplit("train"), test: bankingSplit("test") })
