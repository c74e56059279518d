/**
 * What the `jailbreak` and `prompt-injection` rules find in a text: a
 * built-in or author's pattern first (`InjectionPatterns`), else the shipped
 * classifier (`InjectionClassifier`) at the rule's sensitivity. Either fires
 * on its own, so an author's pattern still catches what the classifier does
 * not, and the classifier catches the phrasings no pattern lists.
 */
import type { UserPattern } from "../../patterns/UserPattern.js"
import { injectionClassified } from "./InjectionClassifier.js"
import { injectionMatch, type Sensitivity } from "./InjectionPatterns.js"

/** A detection: the pattern that matched, or the classifier's probability. */
export type InjectionHit =
  | { readonly by: "pattern"; readonly id: string }
  | { readonly by: "classifier"; readonly probability: number }

/** The first detection in `text`, or undefined. */
export const detectInjection = (
  kind: "jailbreak" | "prompt-injection",
  sensitivity: Sensitivity,
  custom: ReadonlyArray<UserPattern>,
  text: string
): InjectionHit | undefined => {
  const id = injectionMatch(kind, sensitivity, custom, text)
  if (id !== undefined) return { by: "pattern", id }
  const probability = injectionClassified(sensitivity, text)
  return probability === undefined ? undefined : { by: "classifier", probability }
}

/** The event's detail for a detection, without the text: `jailbreak pattern "dan"`, `prompt-injection classifier (0.97)`. */
export const injectionDetail = (kind: "jailbreak" | "prompt-injection", hit: InjectionHit): string =>
  hit.by === "pattern" ? `${kind} pattern "${hit.id}"` : `${kind} classifier (${hit.probability.toFixed(2)})`
