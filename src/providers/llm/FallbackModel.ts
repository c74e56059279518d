/**
 * Two LanguageModels as one: the fallback answers when the primary fails in
 * a way another provider can help with (time-out, 5xx, 429, unreachable, its
 * circuit open), never for a wrong key, model or request. A stream falls back
 * only before its first part: once text reached the caller, a failure is
 * the caller's to see.
 */
import { AiError, type LanguageModel } from "@effect/ai"
import { Effect, Stream } from "effect"
import { fallsBack } from "../../domain/llm/LlmFailureRules.js"
import { fromAiError } from "./LlmCallFailure.js"

/** `primary`, with `fallback` taking over its failures that `fallsBack` names. */
export const fallbackModel = (
  primary: LanguageModel.Service,
  fallback: LanguageModel.Service,
  secrets: ReadonlyArray<string>
): LanguageModel.Service => {
  const worthy = (error: unknown) => AiError.isAiError(error) && fallsBack(fromAiError(error, secrets).kind)
  return {
    generateText:
      ((options: any) =>
        primary.generateText(options).pipe(Effect.catchIf(worthy, () => fallback.generateText(options)))) as any,
    generateObject:
      ((options: any) =>
        primary.generateObject(options).pipe(Effect.catchIf(worthy, () => fallback.generateObject(options)))) as any,
    streamText: ((options: any) =>
      Stream.suspend(() => {
        let started = false
        return primary.streamText(options).pipe(
          Stream.tap(() => Effect.sync(() => (started = true))),
          Stream.catchAll((error) => !started && worthy(error) ? fallback.streamText(options) : Stream.fail(error))
        )
      })) as any
  }
}
