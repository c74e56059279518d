/**
 * The out-of-scope threshold an Assistant gets when it sets none, chosen
 * from its own cross-validation (`CrossValidation`): the highest confidence
 * (a multiple of 0.005) that still keeps at least `KEPT` (90%) of the
 * held-out utterances the model answers right with no threshold.
 *
 * Why this rule: a bot's author gives no examples of what is out of scope,
 * so no rule can trade in-scope answers against out-of-scope refusals
 * measured on the bot's own data. What can be measured is the cost on the
 * in-scope side, and that cost is what a user of a small bot feels (a fixed
 * 0.5 refused a third of a 10-shot bot's right answers). So the rule fixes
 * the cost (10% of the right answers) and takes every refusal that comes
 * within it: a bot whose right answers are confident (many examples) gets a
 * high threshold, one whose right answers are faint (few examples) a low one.
 * On CLINC150 and BANKING77 the share kept on the test sets follows the
 * cross-validated one within a few points (`npm run bench:nlu`).
 *
 * The expected out-of-scope recall shown with it is a proxy: each held-out
 * utterance read among the other intents as if its own were unknown
 * (`IntentModel.readWithout`), refused when its best confidence falls below
 * the threshold. A neighbouring intent is closer to the bot's intents than
 * most off-topic messages, so the proxy is conservative (CLINC150 10-shot:
 * 62% by the proxy, 88% on `oos_test`).
 *
 * Deterministic: the cross-validation is seeded and the rule has no chance
 * in it.
 */

/** The share of the cross-validated right answers the threshold keeps. */
export const KEPT = 0.9

/** The threshold used when there is nothing to cross-validate (the former fixed default). */
export const DEFAULT_THRESHOLD = 0.5

/** Thresholds are multiples of this. */
const STEP = 0.005

/** A held-out utterance as the cross-validation read it. */
export interface HeldOutReading {
  /** The best intent's confidence. */
  readonly confidence: number
  /** Whether the best intent was the utterance's own. */
  readonly right: boolean
  /** The best confidence among the other intents with its own unknown (`readWithout`). */
  readonly unknownConfidence: number
}

/** The chosen threshold and what cross-validation expects of it. */
export interface ThresholdChoice {
  readonly value: number
  /** The share of held-out utterances answered right at `value`. */
  readonly inScopeAccuracy: number
  /** The share of the out-of-scope proxies refused at `value`. */
  readonly outOfScopeRecall: number
}

const answered = (confidence: number, threshold: number) => confidence > 0 && confidence >= threshold

/** What cross-validation expects at `threshold`. */
export const expectedAt = (readings: ReadonlyArray<HeldOutReading>, threshold: number): ThresholdChoice => {
  const total = Math.max(1, readings.length)
  const right = readings.filter((reading) => reading.right && answered(reading.confidence, threshold)).length
  const refused = readings.filter((reading) => !answered(reading.unknownConfidence, threshold)).length
  return { value: threshold, inScopeAccuracy: right / total, outOfScopeRecall: refused / total }
}

/** The threshold for these held-out readings (`DEFAULT_THRESHOLD` when none was answered right). */
export const chooseThreshold = (readings: ReadonlyArray<HeldOutReading>): ThresholdChoice => {
  const right = readings
    .filter((reading) => reading.right && reading.confidence > 0)
    .map((reading) => reading.confidence)
    .sort((a, b) => b - a)
  if (right.length === 0) return expectedAt(readings, DEFAULT_THRESHOLD)
  // The lowest confidence among the most confident KEPT share of right answers, rounded down to a step.
  const lowestKept = right[Math.max(0, Math.ceil(KEPT * right.length) - 1)]!
  const value = Math.floor(lowestKept / STEP + 1e-9) * STEP
  return expectedAt(readings, Math.round(value * 1000) / 1000)
}
