import { describe, expect, it } from "@effect/vitest"
import { admit, closedCircuit, failed, succeeded } from "../../../../src/domain/llm/CircuitBreaker.js"

const policy = { failureThreshold: 3, coolDownMs: 10_000 }

describe("the circuit breaker", () => {
  it("opens after the threshold of consecutive failures, refuses until the cool-down, then lets one probe through", () => {
    let state = closedCircuit
    for (let n = 0; n < 2; n++) state = failed(state, 1000, policy, null)
    expect(admit(state, 1000, policy)[0]).toEqual({ _tag: "Call", probe: false })
    state = failed(state, 1000, policy, null)
    expect(admit(state, 5000, policy)[0]).toEqual({ _tag: "Refuse", until: 11_000, reason: "open" })
    const [probe, probing] = admit(state, 11_000, policy)
    expect(probe).toEqual({ _tag: "Call", probe: true })
    expect(admit(probing, 11_001, policy)[0]._tag).toBe("Refuse")
    expect(admit(succeeded(probing), 11_002, policy)[0]).toEqual({ _tag: "Call", probe: false })
    const reopened = failed(probing, 11_500, policy, null)
    expect(admit(reopened, 20_000, policy)[0]).toEqual({ _tag: "Refuse", until: 21_500, reason: "open" })
  })

  it("a success resets the count; a Retry-After blocks calls whatever the count, and outlives a success", () => {
    const once = failed(closedCircuit, 0, policy, null)
    expect(succeeded(once).consecutiveFailures).toBe(0)
    const limited = failed(closedCircuit, 0, policy, 30_000)
    expect(admit(limited, 29_999, policy)[0]).toEqual({ _tag: "Refuse", until: 30_000, reason: "retry-after" })
    expect(admit(succeeded(limited), 100, policy)[0]._tag).toBe("Refuse")
    expect(admit(limited, 30_000, policy)[0]).toEqual({ _tag: "Call", probe: false })
  })
})
