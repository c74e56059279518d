/**
 * The lexical hybrid's last step: each candidate chunk's BM25 score (over the
 * best candidate's, 0 to 1) and two trigram similarities to the query
 * (`pg_trgm`: the chunk's best-matching sentence, and the best-matching
 * stretch of the chunk's words), summed with weights and divided by the
 * weights' sum, so the fused score runs from 0 to 1. Scores, not ranks, are
 * fused: on the held-out split this convex combination did a little better
 * than a weighted reciprocal rank fusion of the same signals (recall@5 0.929
 * against 0.926, replayed offline). Trigrams catch what stems miss (a
 * misspelling, "verification" against "verify", a compound) and a question
 * worded like one sentence of the chunk (an FAQ's own question).
 */
import { BM25_DEFAULTS, type Bm25Settings } from "./Bm25.js"

/** How the lexical hybrid ranks: BM25's parameters, the fusion's weights and how many chunks it looks at. */
export interface LexicalRanking extends Bm25Settings {
  /** The weight of the best sentence's trigram similarity (BM25's is 1). */
  readonly sentenceWeight: number
  /** The weight of `word_similarity` (the best stretch of the chunk's words). */
  readonly wordWeight: number
  /** How many chunks the rarest query terms may name before the next term no longer probes (see `planQuery`). */
  readonly probeBudget: number
  /** The most candidate chunks one language's probe ranks by BM25. */
  readonly candidateCap: number
}

/**
 * The defaults. k1 and the weights were chosen on BANKING77's held-out split (training utterances
 * that are not in the documents; `KNOWLEDGE_BENCH_PARTS=tune npm run bench:knowledge`), never on
 * the test queries the benchmark reports: k1 2 over 1.2, the sentence 2 and the words 0.5 out of
 * 0 to 3 and 0 to 1. The heading's weight is BM25F's usual 2, untuned (neither benchmark set has
 * headings). The probe's budget trades exactness for work: at 100,000 chunks on the server
 * (PubMedQA repeated 39 times, so that even its rarest words are in 39 chunks) 1,000 gave recall@1
 * 0.890 at 16 ms p50, 2,000 0.900 at 21 ms, 4,000 0.910 at 31 ms and no bound 0.915 at 238 ms
 * (bench/README.md, "knowledge").
 */
export const LEXICAL_DEFAULTS: LexicalRanking = {
  ...BM25_DEFAULTS,
  k1: 2,
  sentenceWeight: 2,
  wordWeight: 0.5,
  probeBudget: 2000,
  candidateCap: 4000
}

/** A candidate with what the fusion reads; the similarities are null past the candidates re-ranked. */
export interface LexicalCandidate<Key> {
  readonly key: Key
  readonly bm25: number
  /** Trigram similarity (0 to 1) of the query to the chunk's best-matching sentence. */
  readonly sentenceSimilarity: number | null
  /** `word_similarity` (0 to 1) of the query to the chunk. */
  readonly wordSimilarity: number | null
}

/** A candidate's fused score (0 to 1). */
export interface Ranked<Key> {
  readonly key: Key
  readonly score: number
}

/**
 * The re-ranked candidates (those with similarities) by fused score, best first, ties in the
 * candidates' order; then the others in their order (BM25's), each scored as if its similarities
 * were 0 but never above the last re-ranked one.
 */
export const fuseLexical = <Key>(
  candidates: ReadonlyArray<LexicalCandidate<Key>>,
  ranking: Pick<LexicalRanking, "sentenceWeight" | "wordWeight"> = LEXICAL_DEFAULTS
): Array<Ranked<Key>> => {
  const best = candidates.reduce((max, candidate) => Math.max(max, candidate.bm25), 0)
  const total = (best > 0 ? 1 : 0) + ranking.sentenceWeight + ranking.wordWeight
  const fused = (candidate: LexicalCandidate<Key>) =>
    total === 0 ? 0 : ((best > 0 ? candidate.bm25 / best : 0) +
      ranking.sentenceWeight * (candidate.sentenceSimilarity ?? 0) +
      ranking.wordWeight * (candidate.wordSimilarity ?? 0)) / total
  const reranked = candidates
    .filter((candidate) => candidate.sentenceSimilarity !== null || candidate.wordSimilarity !== null)
    .map((candidate, order) => ({ key: candidate.key, order, score: fused(candidate) }))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ key, score }) => ({ key, score }))
  let floor = reranked.length > 0 ? reranked[reranked.length - 1]!.score : 1
  const rest = candidates
    .filter((candidate) => candidate.sentenceSimilarity === null && candidate.wordSimilarity === null)
    .map((candidate) => {
      floor = Math.min(floor, fused(candidate))
      return { key: candidate.key, score: floor }
    })
  return [...reranked, ...rest]
}
