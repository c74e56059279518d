/**
 * A LanguageModel behind its connection's circuit breaker: a call is refused
 * at once (an `AiError` carrying `LlmCallFailure`) while the circuit is open
 * or a `Retry-After` runs; failures that mean the provider is down or limited
 * count against it, an answer closes the circuit. A stream counts as answered
 * at its first part.
 */
import { AiError, type LanguageModel } from "@effect/ai"
import { Clock, Effect, Stream } from "effect"
import { countsAgainstProvider } from "../../domain/llm/LlmFailureRules.js"
import type { CircuitBreakers } from "./CircuitBreakers.js"
import { asAiError, fromAiError, llmFailure } from "./LlmCallFailure.js"

const refusal = (breakers: CircuitBreakers, key: string, label: string, method: string) =>
  Effect.flatMap(
    breakers.admit(key),
    (admission) =>
      admission._tag === "Call" ? Effect.void : Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const waitMs = Math.max(0, admission.until - now)
        const failure = admission.reason === "retry-after"
          ? llmFailure("rate-limited", `${label} asked not to be called for another ${waitMs} ms`, waitMs)
          : llmFailure("provider-error", `${label} failed repeatedly; not called for another ${waitMs} ms`, waitMs)
        return Effect.fail(asAiError(failure, method))
      })
  )

/**
 * `model` behind the breaker `key` of `breakers`; `label` names the connection
 * in messages; `secrets` are stripped from them. A stream that sends nothing
 * for `idleTimeoutMs` fails as a time-out (the HTTP client's time-out covers
 * only the answer's head).
 */
export const guardedModel = (
  model: LanguageModel.Service,
  breakers: CircuitBreakers,
  key: string,
  label: string,
  secrets: ReadonlyArray<string>,
  idleTimeoutMs: number
): LanguageModel.Service => {
  const record = (error: unknown) => {
    if (!AiError.isAiError(error)) return Effect.void
    const failure = fromAiError(error, secrets)
    return countsAgainstProvider(failure.kind) ? breakers.failed(key, failure.retryAfterMs) : Effect.void
  }
  const guard = <A, E, R>(method: string, effect: Effect.Effect<A, E, R>) =>
    refusal(breakers, key, label, method).pipe(
      Effect.zipRight(effect),
      Effect.tapBoth({ onFailure: record, onSuccess: () => breakers.succeeded(key) })
    )
  return {
    generateText: ((options: any) => guard("generateText", model.generateText(options))) as any,
    generateObject: ((options: any) => guard("generateObject", model.generateObject(options))) as any,
    streamText: ((options: any) =>
      Stream.unwrap(Effect.as(
        refusal(breakers, key, label, "streamText"),
        Stream.suspend(() => {
          let answered = false
          return model.streamText(options).pipe(
            Stream.timeoutFail(
              () =>
                asAiError(llmFailure("timeout", `${label} sent nothing for ${idleTimeoutMs / 1000} s`), "streamText"),
              idleTimeoutMs
            ),
            Stream.tap(() => answered ? Effect.void : (answered = true, breakers.succeeded(key))),
            Stream.tapError((error) => answered ? Effect.void : record(error))
          )
        })
      ))) as any
  }
}
