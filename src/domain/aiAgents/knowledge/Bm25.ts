/**
 * Okapi BM25 over an agent's chunks (Robertson and Zaragoza, 2009), with the
 * heading counted as a second field (BM25F's simple form: a heading
 * occurrence counts `headingWeight` times) and Lucene's IDF,
 * `ln(1 + (N - n + 0.5) / (n + 0.5))`, which never goes negative.
 *
 * The index keeps how many chunks hold each lexeme and the chunks' total
 * length per agent, so the IDF and the average length are exact for the
 * agent's whole index. A search does not rank every chunk that shares a word
 * with the query: it probes the index with its rarest terms first, while the
 * chunks they name fit a budget (`planQuery`), and ranks those chunks by every
 * term of the query. A chunk holding none of the probed terms can score at
 * most `unprobedBound` (a term adds less than `idf × (k1 + 1)`), so when the
 * ranking's last wanted score reaches that bound the answer is exactly the
 * top of an exhaustive BM25 (`isExact`), as in WAND (Broder et al., 2003).
 */

/** BM25's parameters: `k1` saturates a term's frequency, `b` normalizes by length (0 none, 1 fully). */
export interface Bm25Settings {
  readonly k1: number
  readonly b: number
  /** How many body occurrences one occurrence in the chunk's heading path is worth. */
  readonly headingWeight: number
}

/** The common defaults (Robertson's k1 = 1.2, b = 0.75); a heading word counts twice. */
export const BM25_DEFAULTS: Bm25Settings = { k1: 1.2, b: 0.75, headingWeight: 2 }

/** What the index knows of all the chunks of an agent. */
export interface IndexStatistics {
  readonly chunks: number
  /** The chunks' lengths summed, in indexed tokens (stop words left out). */
  readonly tokens: number
}

/** A lexeme of the query and how many of the agent's chunks hold it. */
export interface TermStatistics {
  readonly lexeme: string
  readonly documentFrequency: number
}

/** A query ready to rank chunks: its terms (that some chunk holds) with their IDF, and which of them probe the index. */
export interface Bm25Plan {
  readonly terms: ReadonlyArray<{ readonly lexeme: string; readonly idf: number }>
  /** The rarest terms, whose chunks are the candidates. */
  readonly probe: ReadonlyArray<string>
  /** The most a chunk holding none of the probed terms can score: 0 when every term probes. */
  readonly unprobedBound: number
  readonly averageLength: number
}

export const inverseDocumentFrequency = (chunks: number, documentFrequency: number): number =>
  Math.log(1 + (chunks - documentFrequency + 0.5) / (documentFrequency + 0.5))

/** One term's share of a chunk's score, for a (field-weighted) frequency in a chunk of `length` tokens. */
export const termScore = (
  idf: number,
  frequency: number,
  length: number,
  averageLength: number,
  settings: Bm25Settings = BM25_DEFAULTS
): number => {
  if (frequency <= 0) return 0
  const { b, k1 } = settings
  const norm = averageLength > 0 ? 1 - b + b * length / averageLength : 1
  return idf * frequency * (k1 + 1) / (frequency + k1 * norm)
}

/**
 * The plan for a query's lexemes (repeats count once; lexemes no chunk holds are dropped): terms
 * probe from the rarest (ties by lexeme, so a plan is deterministic) while the chunks they name add
 * up to at most `budget`; the rarest always probes.
 */
export const planQuery = (
  terms: ReadonlyArray<TermStatistics>,
  index: IndexStatistics,
  budget: number,
  settings: Bm25Settings = BM25_DEFAULTS
): Bm25Plan => {
  const known = new Map<string, number>()
  for (const term of terms) if (term.documentFrequency > 0) known.set(term.lexeme, term.documentFrequency)
  const ordered = [...known].sort(([a, x], [b, y]) => x - y || (a < b ? -1 : a > b ? 1 : 0))
  const probe: Array<string> = []
  let named = 0
  let unprobedBound = 0
  for (const [lexeme, frequency] of ordered) {
    if (probe.length === 0 || named + frequency <= budget) {
      probe.push(lexeme)
      named += frequency
    } else {
      unprobedBound += inverseDocumentFrequency(index.chunks, frequency) * (settings.k1 + 1)
    }
  }
  return {
    terms: ordered.map(([lexeme, frequency]) => ({ lexeme, idf: inverseDocumentFrequency(index.chunks, frequency) })),
    probe,
    unprobedBound,
    averageLength: index.chunks > 0 ? index.tokens / index.chunks : 0
  }
}

/**
 * A chunk's BM25 score: `frequencies[i]` is how often the plan's `terms[i]` occurs in the chunk,
 * field-weighted (its text's occurrences plus `headingWeight` times its heading path's).
 */
export const scoreChunk = (
  plan: Bm25Plan,
  frequencies: ReadonlyArray<number>,
  length: number,
  settings: Bm25Settings = BM25_DEFAULTS
): number => {
  let score = 0
  plan.terms.forEach((term, at) => {
    score += termScore(term.idf, frequencies[at] ?? 0, length, plan.averageLength, settings)
  })
  return score
}

/**
 * Whether the best `wanted` of the probed chunks are the best of all: scores sorted best first,
 * exact when there are fewer than `wanted` with nothing left unprobed, or the `wanted`th reaches
 * the bound of a chunk the probe did not find.
 */
export const isExact = (plan: Bm25Plan, scores: ReadonlyArray<number>, wanted: number): boolean =>
  plan.unprobedBound === 0 || (scores.length >= wanted && scores[wanted - 1]! >= plan.unprobedBound)
