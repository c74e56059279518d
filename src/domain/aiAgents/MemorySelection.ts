/**
 * Which remembered facts go into a prompt: a pure ranking and a greedy fill
 * of a token budget. Keyed facts come first (they are the stable ones the
 * `remember` tool keeps up to date), then those sharing more words with the
 * query, then the most recently written. Tokens are estimated as
 * ceil(characters / 4) of the line the prompt shows (`key: content`).
 */

/** What the selection needs of a fact. */
export interface MemoryCandidate {
  readonly key: string | null
  readonly content: string
  /** When the fact was last written, in epoch milliseconds. */
  readonly updatedAtMillis: number
}

/** The line a fact is shown as in a prompt. */
export const factLine = (fact: Pick<MemoryCandidate, "key" | "content">): string =>
  fact.key === null ? fact.content : `${fact.key}: ${fact.content}`

/** The estimated tokens of a text: ceil(characters / 4). */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4)

/** The distinct lower-case words of at least three letters or digits in a text. */
export const wordsOf = (text: string): ReadonlySet<string> =>
  new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => word.length >= 3))

/** How many of the query's words the fact (key and content) contains. */
export const overlap = (query: ReadonlySet<string>, fact: Pick<MemoryCandidate, "key" | "content">): number => {
  const words = wordsOf(`${fact.key?.replace(/[_.-]/g, " ") ?? ""} ${fact.content}`)
  let shared = 0
  for (const word of query) if (words.has(word)) shared++
  return shared
}

/** The facts ordered by relevance to the query: keyed first, then word overlap, then recency. */
export const rankFacts = <F extends MemoryCandidate>(facts: ReadonlyArray<F>, query: string): ReadonlyArray<F> => {
  const queryWords = wordsOf(query)
  return facts
    .map((fact) => ({ fact, keyed: fact.key === null ? 0 : 1, shared: overlap(queryWords, fact) }))
    .sort((a, b) => b.keyed - a.keyed || b.shared - a.shared || b.fact.updatedAtMillis - a.fact.updatedAtMillis)
    .map(({ fact }) => fact)
}

/**
 * The most relevant facts whose lines fit in `tokenBudget` together, in
 * ranking order: a fact too large for what is left is skipped and smaller
 * ones after it may still fit.
 */
export const selectForPrompt = <F extends MemoryCandidate>(
  facts: ReadonlyArray<F>,
  query: string,
  tokenBudget: number
): ReadonlyArray<F> => {
  let left = Number.isFinite(tokenBudget) ? Math.max(0, Math.floor(tokenBudget)) : 0
  const chosen: Array<F> = []
  for (const fact of rankFacts(facts, query)) {
    const cost = estimateTokens(factLine(fact))
    if (cost <= left) {
      chosen.push(fact)
      left -= cost
    }
  }
  return chosen
}
