/**
 * Which defined intent an undefined name most likely meant: the one at the
 * smallest edit distance (case-insensitive Levenshtein), ties to the
 * earliest in the order given. Used by the analysis (is there anything to
 * re-point to?) and by `repair-node` (re-point to it).
 */

const distance = (a: string, b: string): number => {
  const previous = Array.from({ length: b.length + 1 }, (_, index) => index)
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0]!
    previous[0] = i
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j]!
      previous[j] = Math.min(above + 1, previous[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1))
      diagonal = above
    }
  }
  return previous[b.length]!
}

/** The candidate nearest to `name`, or `undefined` when there is none. */
export const nearestName = (name: string, candidates: ReadonlyArray<string>): string | undefined => {
  let best: string | undefined
  let bestDistance = Infinity
  for (const candidate of candidates) {
    const d = distance(name.toLowerCase(), candidate.toLowerCase())
    if (d < bestDistance) {
      best = candidate
      bestDistance = d
    }
  }
  return best
}
