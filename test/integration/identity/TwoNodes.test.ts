/**
 * Two Parley nodes on one database, as a cluster runs them: a brute-force
 * limit counts attempts on both (two nodes, one limit), and signing out on
 * one node stops the session's tokens on the other at once, although that
 * node had the session cached.
 */
import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { as, freshAddress, post, signUp } from "../../support/Accounts.js"
import { exchange } from "../../support/Http.js"
import { twoNodes } from "../../support/TwoNodes.js"

describe("two nodes", () => {
  it.scopedLive("share one brute-force limit", () =>
    Effect.gen(function*() {
      const { onA, onB } = yield* twoNodes
      const account = yield* onA(signUp())
      const address = freshAddress()
      const wrong = (node: typeof onA) =>
        node(post("/v1/auth/login", { email: account.email, password: "not the right password" }, { address }))
      // Ten wrong passwords for one account from one address are allowed, spread over both nodes…
      for (let i = 0; i < 10; i++) {
        const res = yield* wrong(i % 2 === 0 ? onA : onB)
        expect(res.status).toBe(401)
      }
      // …the eleventh is refused on either node, with when to retry.
      const onBNode = yield* wrong(onB)
      expect(onBNode.status).toBe(429)
      expect(Number(onBNode.headers["retry-after"])).toBeGreaterThan(0)
      expect(onBNode.json._tag).toBe("RateLimited")
      expect((yield* wrong(onA)).status).toBe(429)
      // The rightful user, from elsewhere, is not locked out.
      const elsewhere = yield* onB(
        post("/v1/auth/login", { email: account.email, password: "correct horse battery staple" }, {
          address: freshAddress()
        })
      )
      expect(elsewhere.status).toBe(200)
    }), 60_000)

  it.scopedLive("end a session on every node at once", () =>
    Effect.gen(function*() {
      const { onA, onB } = yield* twoNodes
      const account = yield* onA(signUp())
      const me = exchange(as(HttpClientRequest.get("/v1/auth/me"), { token: account.token }))
      // Node B has the live session cached once it served a request.
      expect((yield* onB(me)).status).toBe(200)
      expect((yield* onB(me)).status).toBe(200)
      const started = Date.now()
      expect((yield* onA(exchange(as(HttpClientRequest.post("/v1/auth/logout"), { token: account.token })))).status)
        .toBe(204)
      const refused = yield* onB(me).pipe(
        Effect.filterOrFail((res) => res.status === 401, () => "still accepted"),
        Effect.retry(Schedule.spaced("5 millis").pipe(Schedule.upTo("2 seconds")))
      )
      const elapsed = Date.now() - started
      expect(refused.json._tag).toBe("Unauthenticated")
      expect(elapsed).toBeLessThan(2_000)
      console.log(`session ended on the other node after ${elapsed} ms`)
    }), 60_000)
})
