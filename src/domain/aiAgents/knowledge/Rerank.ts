/**
 * The optional rerank of `knowledge_search` (its `rerank` setting): the
 * agent's own language model is shown the query and the best passages of the
 * fused ranking, numbered, and asked for their numbers from most to least
 * useful as strict JSON (`{"order":[3,1,2]}`). Its answer is read
 * defensively: a number out of range or repeated is skipped, passages it
 * left out keep their fused order after those it named, and an answer that
 * is not such JSON at all leaves the fused order (never a failed search).
 */

/** How many of the fused ranking's best passages the model orders. */
export const RERANKED_PASSAGES = 20

/** The longest stretch of a passage the model is shown, in characters. */
const SHOWN_CHARACTERS = 600

/** The instructions of the rerank call. */
export const RERANK_INSTRUCTIONS =
  "You rank passages by how well they answer a search query. Reply with JSON only, no prose: " +
  "{\"order\": [numbers of the passages, most useful first]}. Use each passage's number once."

/** The user message of the rerank call: the query and the passages, numbered from 1. */
export const rerankPrompt = (query: string, passages: ReadonlyArray<{ readonly text: string }>): string =>
  [
    `Query: ${query}`,
    "",
    ...passages.map((passage, i) => `[${i + 1}] ${passage.text.replace(/\s+/g, " ").slice(0, SHOWN_CHARACTERS)}`)
  ].join("\n")

/** The first JSON object in `text` (a model may wrap it in a code fence or a sentence), or undefined. */
const jsonObjectIn = (text: string): unknown => {
  const start = text.indexOf("{")
  const end = text.lastIndexOf("}")
  if (start < 0 || end <= start) return undefined
  try {
    return JSON.parse(text.slice(start, end + 1))
  } catch {
    return undefined
  }
}

/**
 * The order a model's answer gives `count` passages, as 0-based indexes
 * (every passage once: those named first, in the answer's order, then the
 * rest in their fused order); undefined when the answer names none validly.
 */
export const parseRerank = (answer: string, count: number): Array<number> | undefined => {
  const parsed = jsonObjectIn(answer)
  const order = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)["order"]
    : undefined
  if (!Array.isArray(order)) return undefined
  const named: Array<number> = []
  for (const entry of order) {
    const number = typeof entry === "string" && /^\s*\d+\s*$/.test(entry) ? Number(entry) : entry
    if (typeof number !== "number" || !Number.isInteger(number) || number < 1 || number > count) continue
    if (!named.includes(number - 1)) named.push(number - 1)
  }
  if (named.length === 0) return undefined
  return [...named, ...Array.from({ length: count }, (_, i) => i).filter((i) => !named.includes(i))]
}
