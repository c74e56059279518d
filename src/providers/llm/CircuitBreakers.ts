/**
 * The circuit breakers of this node, one per provider connection (endpoint,
 * model and key): a provider that keeps failing, or asked us to wait, is not
 * called until its cool-down or its `Retry-After` has passed. State lives in
 * memory, per node: each node learns on its own that a provider is down, and
 * a restart forgets it. Transitions are pure (`domain/llm/CircuitBreaker.ts`)
 * and applied atomically to one map; a call to a healthy provider changes
 * nothing in it.
 */
import { Clock, Effect, Ref } from "effect"
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
    const states = yield* Ref.make<ReadonlyMap<string, CircuitState>>(new Map())
    return {
      /** Whether a call to this connection may go now (a probe when the circuit was open). */
      admit: (key: string): Effect.Effect<CircuitAdmission> =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Ref.modify(states, (map) => {
            const state = map.get(key)
            if (state === undefined) return [{ _tag: "Call", probe: false }, map]
            const [admission, next] = admit(state, now, policy)
            return [admission, next === state ? map : new Map(map).set(key, next)]
          })),
      /** The call answered: a closed circuit is forgotten. */
      succeeded: (key: string) =>
        Ref.update(states, (map) => {
          const state = map.get(key)
          if (state === undefined) return map
          const next = succeeded(state)
          const copy = new Map(map)
          if (next.blockedUntil === 0) copy.delete(key)
          else copy.set(key, next)
          return copy
        }),
      /** The call failed in a way that counts against the provider. */
      failed: (key: string, retryAfterMs: number | null) =>
        Effect.flatMap(
          Clock.currentTimeMillis,
          (now) =>
            Ref.update(states, (map) =>
              new Map(map).set(key, failed(map.get(key) ?? closedCircuit, now, policy, retryAfterMs)))
        )
    } as const
  })
}) {}
