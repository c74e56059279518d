/**
 * `low-intent-accuracy`: an intent the classifier recognises on fewer than
 * `LOW_ACCURACY` of its own examples under cross-validation, read from a
 * measured NLU report (ready, or stale: the figures of an older intents
 * revision are still the best known). A warning naming the intent it is most
 * often taken for, when there is one.
 */
import type { Finding } from "../FlowFinding.js"
import type { NluReport } from "../NluReport.js"
import { warning } from "./Findings.js"

/** Below this cross-validated recall an intent is reported. */
export const LOW_ACCURACY = 0.6

const percent = (ratio: number) => `${Math.round(ratio * 100)}%`

/** The low-accuracy findings of a report, in the report's order of intents; none until it is measured. */
export const nluFindings = (report: NluReport): ReadonlyArray<Finding> => {
  if (report.status !== "ready" && report.status !== "stale") return []
  return report.intents.flatMap((score) => {
    if (score.support === 0 || score.accuracy >= LOW_ACCURACY) return []
    const confusion = report.confusions.find((pair) => pair.expected === score.intent)
    return [
      warning(
        "low-intent-accuracy",
        `The classifier recognises ${score.intent} on ${percent(score.accuracy)} of its examples${
          confusion === undefined ? "" : `, most often taking it for ${confusion.predicted}`
        }`,
        { intents: confusion === undefined ? [score.intent] : [score.intent, confusion.predicted] }
      )
    ]
  })
}
