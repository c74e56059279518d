/**
 * A deployment served by two nodes on one database: a conversation started
 * on one continues on the other, the token's rate limit counts requests on
 * both, and a revocation on one node stops the token on the other at once.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { post, signUp } from "../../support/Accounts.js"
import { echoFlow } from "../../support/Conversations.js"
import { assistantWith, deployed, readPublic, startPublic, turnPublic } from "../../support/Deployments.js"
import { twoNodes } from "../../support/TwoNodes.js"

describe("a deployment on two nodes", () => {
  it.scopedLive(
    "one conversation, one rate limit, and a revocation that stops the token on both at once",
    () =>
      Effect.gen(function*() {
        const { onA, onB } = yield* twoNodes
        const owner = yield* onA(signUp())
        const agentId = yield* onA(assistantWith(owner, echoFlow))
        const deployment = yield* onA(deployed(owner, agentId, { allowedOrigins: ["*"], rateLimitPerMinute: 6 }))
        const page = { token: deployment.token }

        const sessionId = (yield* onA(startPublic(page))).json.sessionId as string
        const onOther = yield* onB(turnPublic(page, sessionId, { text: "hello" }, "k1"))
        expect(onOther.status).toBe(200)
        expect(onOther.json.messages[0].text).toBe("You said: hello")
        // The same key on the first node is the same turn.
        const repeated = yield* onA(turnPublic(page, sessionId, { text: "hello" }, "k1"))
        expect(repeated.json).toEqual(onOther.json)
        expect((yield* onB(readPublic(page, sessionId))).json.turn).toBe(1)

        // Four requests so far, spread over both nodes (start, turn, repeat, read): two more fit, the seventh does not.
        expect((yield* onA(readPublic(page, sessionId))).status).toBe(200)
        expect((yield* onB(readPublic(page, sessionId))).status).toBe(200)
        const limited = yield* onA(readPublic(page, sessionId))
        expect(limited.status).toBe(429)
        expect((yield* onB(readPublic(page, sessionId))).status).toBe(429)

        // Revoked on B: A refuses the token at once, for a new session as for the old one.
        expect((yield* onB(post(`/v1/deployments/${deployment.id}/revoke`, {}, owner))).status).toBe(200)
        const refused = yield* onA(turnPublic(page, sessionId, { text: "again" }, "k2"))
        expect(refused.status).toBe(401)
        expect(refused.json.message).toMatch(/revoked/)
        expect((yield* onA(startPublic(page))).status).toBe(401)
      }),
    120_000
  )
})
