/** What makes two example utterances the same example: case and runs of white space do not count. */
export const sameExample = (utterance: string): string => utterance.trim().replace(/\s+/g, " ").toLowerCase()

/**
 * An intent's utterances with repeats collapsed: each example once, as it was
 * first written, in the order given. Repeats teach the classifier nothing and
 * would skew its cross-validated accuracy.
 */
export const distinctUtterances = (utterances: ReadonlyArray<string>): ReadonlyArray<string> => {
  const seen = new Set<string>()
  const kept: Array<string> = []
  for (const utterance of utterances) {
    const key = sameExample(utterance)
    if (seen.has(key)) continue
    seen.add(key)
    kept.push(utterance.trim())
  }
  return kept
}
