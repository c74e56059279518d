/**
 * The circuit breakers of this node, one per provider connection (endpoint,
 * model and key): a provider that keeps failing, or asked us to wait, is not
 * called until its cool-down or its `Retry-After` has passed. State lives in
 * memory, per node: each node learns on its own that a provider is down, and
 * a restart forgets it.
 */
import { Clock, Effect, SynchronizedRef } from "effect"
import { LlmBreakerPolicy } from "../../config/Settings.js"
import {
  admit,
  type CircuitAdmission,
  type CircuitState,
  closedCircuit,
  failed,
  succeeded
} from "../../domain/llm/CircuitBreaker.js"

export class CircuitBreakers extends Effect.Service<CircuitBreakers>()("parley/providers/llm/CircuitBreakers", {
  effect: Effect.gen(function*() {
    const policy = yield* LlmBreakerPolicy
    const states = yield* SynchronizedRef.make(new Map<string, CircuitState>())
    const update = (key: string, f: (state: CircuitState, now: number) => CircuitState) =>
      Effect.flatMap(
        Clock.currentTimeMillis,
        (now) => SynchronizedRef.update(states, (map) => new Map(map).set(key, f(map.get(key) ?? closedCircuit, now)))
      )

    return {
      /** Whether a call to this connection may go now (a probe when the circuit was open). */
      admit: (key: string): Effect.Effect<CircuitAdmission> =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          SynchronizedRef.modify(states, (map) => {
            const [admission, next] = admit(map.get(key) ?? closedCircuit, now, policy)
            return [admission, next === map.get(key) ? map : new Map(map).set(key, next)]
          })),
      /** The call answered. */
      succeeded: (key: string) => update(key, succeeded),
      /** The call failed in a way that counts against the provider. */
      failed: (key: string, retryAfterMs: number | null) =>
        update(key, (state, now) => failed(state, now, policy, retryAfterMs))
    } as const
  })
}) {}
