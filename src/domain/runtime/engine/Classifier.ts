/**
 * The port an intent router classifies through. The engine only asks for a
 * ranking of the router's intents; which model answers (the built-in
 * `TokenClassifier`, or a stronger one later) is the program's choice.
 */
import type { Effect } from "effect"

/** How strongly a text reads as one intent, in [0, 1]. */
export interface IntentScore {
  readonly intent: string
  readonly confidence: number
}

/** Classifies user text among a router's intents. */
export interface Classifier {
  /**
   * Scores `text` against each intent of `among` (an intent it does not know
   * scores 0), best first, ties in the order of `among`. Must be
   * deterministic and must not fail.
   */
  readonly classify: (text: string, among: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<IntentScore>>
  /**
   * The out-of-scope threshold this classifier chose for its intents (from
   * their cross-validation), used when neither the router nor the Assistant
   * sets one; without it the engine uses `DEFAULT_THRESHOLD`.
   */
  readonly threshold?: Effect.Effect<number>
}

/**
 * A confidence as the engine reports it and compares it with thresholds:
 * clamped to [0, 1] (a non-number is 0) and rounded to four decimals, so the
 * number shown is the number that decided.
 */
export const roundConfidence = (value: number): number =>
  Number.isFinite(value) ? Math.round(Math.min(1, Math.max(0, value)) * 10_000) / 10_000 : 0
