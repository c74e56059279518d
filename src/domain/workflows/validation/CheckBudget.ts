/**
 * How much work validate-publish spends compiling one graph's expressions,
 * so that no draft (500 nodes of 10,000-character expressions and
 * 20,000-character templates) can hold the endpoint for long. Compiling
 * JSONata takes time linear in the text except for a path's steps, whose
 * cost grows with their square (a 5,000-step `a.a.a...` takes about 0.7 s
 * where 10,000 characters of arithmetic take about 15 ms), so the work of an
 * expression is counted as its length plus its dots squared over 50, in
 * units of about 2 µs (measured on a loaded 2-CPU machine, where 500
 * ordinary expressions of 170 characters take about 0.25 s in all).
 * Counted, not timed, so the same draft always gets the same answer. An
 * expression over `EXPRESSION_WORK_LIMIT` is refused as too large (no author
 * writes a path of 2,000 steps); once a graph has spent `GRAPH_WORK_LIMIT`,
 * its remaining expressions are reported as not checked, so the draft cannot
 * be published until it is smaller.
 */

/** The most work one expression may take to compile (a single path of about 2,200 steps, 0.2 s). */
export const EXPRESSION_WORK_LIMIT = 100_000

/**
 * The most work the expressions of one graph may take together (under a
 * second): 400,000 characters of JSONata, far beyond any real workflow.
 */
export const GRAPH_WORK_LIMIT = 400_000

/** What each compilation costs besides its text. */
const OVERHEAD = 20

/** The work of compiling `source`: its length, plus its dots (outside string literals) squared over 50. */
export const compileWork = (source: string): number => {
  let dots = 0
  let quote: string | undefined
  for (let index = 0; index < source.length; index++) {
    const char = source[index]!
    if (quote !== undefined) {
      if (char === quote) quote = undefined
      else if (char === "\\" && quote !== "`") index++
    } else if (char === "\"" || char === "'" || char === "`") {
      quote = char
    } else if (char === ".") {
      dots++
    }
  }
  return OVERHEAD + source.length + Math.ceil((dots * dots) / 50)
}

/** What is left of a graph's compile work. */
export interface CheckBudget {
  remaining: number
}

/** A fresh budget for one graph. */
export const makeCheckBudget = (): CheckBudget => ({ remaining: GRAPH_WORK_LIMIT })
