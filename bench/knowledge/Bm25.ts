/**
 * The baseline: plain Okapi BM25 (k1 = 1.2, b = 0.75, the Lucene IDF
 * `ln(1 + (N - n + 0.5) / (n + 0.5))`: the formula of
 * `src/domain/aiAgents/knowledge/Bm25.ts`) over whole documents, in memory,
 * lower-cased alphanumeric tokens, no stemming and no stop words.
 */
import { inverseDocumentFrequency, termScore } from "../../src/domain/aiAgents/knowledge/Bm25.js"

const tokens = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []

/** An index of documents by key; `rank` answers every document's key, best first. */
export const bm25 = (documents: ReadonlyArray<{ readonly key: string; readonly text: string }>, k1 = 1.2, b = 0.75) => {
  const counts = documents.map((document) => {
    const terms = new Map<string, number>()
    const words = tokens(document.text)
    for (const word of words) terms.set(word, (terms.get(word) ?? 0) + 1)
    return { key: document.key, terms, length: words.length }
  })
  const averageLength = counts.reduce((sum, document) => sum + document.length, 0) / Math.max(1, counts.length)
  const frequency = new Map<string, number>()
  for (const document of counts) {
    for (const term of document.terms.keys()) frequency.set(term, (frequency.get(term) ?? 0) + 1)
  }
  const idf = (term: string) => inverseDocumentFrequency(counts.length, frequency.get(term) ?? 0)
  return {
    rank: (query: string): Array<string> => {
      const terms = [...new Set(tokens(query))]
      return counts
        .map((document) => {
          let score = 0
          for (const term of terms) {
            const tf = document.terms.get(term) ?? 0
            score += termScore(idf(term), tf, document.length, averageLength, { k1, b, headingWeight: 0 })
          }
          return { key: document.key, score }
        })
        .sort((x, y) => y.score - x.score)
        .map((document) => document.key)
    }
  }
}
