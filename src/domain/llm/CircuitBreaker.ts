/**
 * A provider's circuit breaker, as pure transitions over a small state, so a
 * dead or rate-limited provider is not called on every turn: after
 * `failureThreshold` consecutive failures the circuit opens for `coolDownMs`;
 * then one call (the probe) is let through, and the circuit closes on its
 * success or opens again on its failure. A `Retry-After` blocks calls until
 * it passes, whatever the count.
 */

/** The breaker's settings. */
export interface CircuitPolicy {
  readonly failureThreshold: number
  readonly coolDownMs: number
}

/** One provider connection's state on one node. */
export interface CircuitState {
  readonly consecutiveFailures: number
  /** While open (or while a probe runs), no call before this instant (ms since the epoch). */
  readonly openUntil: number
  /** The provider asked not to be called before this instant (Retry-After). */
  readonly blockedUntil: number
}

export const closedCircuit: CircuitState = { consecutiveFailures: 0, openUntil: 0, blockedUntil: 0 }

/** Whether a call may go: `call` (a `probe` when the circuit was open), or `refuse` until an instant. */
export type CircuitAdmission =
  | { readonly _tag: "Call"; readonly probe: boolean }
  | { readonly _tag: "Refuse"; readonly until: number; readonly reason: "open" | "retry-after" }

/** Decide a call at `now`, and the state after deciding (a probe holds the circuit for another cool-down). */
export const admit = (
  state: CircuitState,
  now: number,
  policy: CircuitPolicy
): readonly [CircuitAdmission, CircuitState] => {
  if (now < state.blockedUntil) {
    return [{ _tag: "Refuse", until: state.blockedUntil, reason: "retry-after" }, state]
  }
  if (state.consecutiveFailures < policy.failureThreshold) return [{ _tag: "Call", probe: false }, state]
  if (now < state.openUntil) return [{ _tag: "Refuse", until: state.openUntil, reason: "open" }, state]
  return [{ _tag: "Call", probe: true }, { ...state, openUntil: now + policy.coolDownMs }]
}

/** A call answered: the circuit closes (a Retry-After still in force stays). */
export const succeeded = (state: CircuitState): CircuitState => ({ ...closedCircuit, blockedUntil: state.blockedUntil })

/** A call failed in a way that counts against the provider, maybe with a Retry-After. */
export const failed = (
  state: CircuitState,
  now: number,
  policy: CircuitPolicy,
  retryAfterMs: number | null
): CircuitState => {
  const consecutiveFailures = state.consecutiveFailures + 1
  return {
    consecutiveFailures,
    openUntil: consecutiveFailures >= policy.failureThreshold ? now + policy.coolDownMs : state.openUntil,
    blockedUntil: retryAfterMs === null ? state.blockedUntil : Math.max(state.blockedUntil, now + retryAfterMs)
  }
}
