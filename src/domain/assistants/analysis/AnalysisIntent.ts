import type { Slot } from "../Intent.js"

/** An intent as the analysis reads it (a stored `Intent` or the engine's). */
export interface AnalysisIntent {
  readonly name: string
  readonly utterances: ReadonlyArray<string>
  readonly slots: ReadonlyArray<typeof Slot.Type>
}
