/**
 * The public runtime over real HTTP and the real database: an embedding page
 * holds a conversation through a deployment's token, on the deployment's
 * snapshot even after the draft changes; turns are exactly-once per
 * Idempotency-Key; the token is refused when missing, malformed, unknown or
 * revoked (at once); the page's Origin must be allowed (and CORS preflights
 * are answered); the token's rate limit answers 429 with Retry-After; a
 * session is only visible to its own deployment's token, and editors read it
 * but cannot talk in it.
 */
import { HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { as, post, signUp } from "../../support/Accounts.js"
import {
  assistantWith,
  deployed,
  type Page,
  readPublic,
  replaceFlow,
  startPublic,
  turnPublic
} from "../../support/Deployments.js"
import { exchange } from "../../support/Http.js"
import { testServer } from "../../support/TestServer.js"

const at = (x: number) => ({ x, y: 0 })
const SHOP = "https://shop.example.com"

/** A greeting, a size to choose, and an end that thanks by size (or gives up after two wrong answers). */
const sizeFlow = (greeting: string) => ({
  nodes: [
    { id: "start", type: "start", position: at(0), data: {} },
    { id: "greet", type: "message", position: at(100), data: { text: greeting } },
    {
      id: "ask_size",
      type: "question",
      position: at(200),
      data: {
        prompt: "Which size?",
        variable: "size",
        maxAttempts: 2,
        validation: {
          kind: "choice",
          options: [{ value: "small", label: "Small" }, { value: "large", label: "Large", synonyms: ["big"] }]
        }
      }
    },
    { id: "bye", type: "end", position: at(300), data: { message: "One {{size}} coming up.", outcome: "ordered" } },
    { id: "gave_up", type: "end", position: at(300), data: { outcome: "gave_up" } }
  ],
  edges: [
    { id: "e1", source: "start", target: "greet", kind: "next" },
    { id: "e2", source: "greet", target: "ask_size", kind: "next" },
    { id: "e3", source: "ask_size", target: "bye", kind: "answered" },
    { id: "e4", source: "ask_size", target: "gave_up", kind: "fallback" }
  ]
})

/** An owner's Assistant on `sizeFlow`, deployed for `origins`; the page that embeds it. */
const deployedShop = (body: Record<string, unknown> = {}) =>
  Effect.gen(function*() {
    const owner = yield* signUp()
    const agentId = yield* assistantWith(owner, sizeFlow("Welcome to {{shop}}."))
    const deployment = yield* deployed(owner, agentId, { allowedOrigins: [SHOP], ...body })
    const page: Page = { token: deployment.token, origin: SHOP }
    return { owner, agentId, deployment, page }
  })

layer(testServer(), { excludeTestServices: true, timeout: 120_000 })("public runtime", (it) => {
  it.effect("a conversation runs the deployment's snapshot, not the draft as it changes afterwards", () =>
    Effect.gen(function*() {
      const { agentId, owner, page } = yield* deployedShop()
      // The draft moves on after the deployment.
      expect((yield* replaceFlow(owner, agentId, sizeFlow("The draft changed."))).status).toBe(200)

      const opening = yield* startPublic(page, { variables: { shop: "Parley Pizza" }, endUserId: "visitor-1" })
      expect(opening.status).toBe(201)
      expect(opening.headers["x-trace-id"]).toBe(opening.json.traceId)
      expect(opening.json).toEqual({
        sessionId: expect.any(String),
        turn: 0,
        status: "active",
        ended: false,
        traceId: expect.any(String),
        messages: [
          { type: "text", text: "Welcome to Parley Pizza.", nodeId: "greet" },
          {
            type: "buttons",
            display: "quick-replies",
            text: "Which size?",
            nodeId: "ask_size",
            buttons: [{ label: "Small", payload: "small" }, { label: "Large", payload: "large" }]
          }
        ]
      })
      const sessionId = opening.json.sessionId as string

      const wrong = yield* turnPublic(page, sessionId, { text: "medium" }, "t1")
      expect(wrong.status).toBe(200)
      expect(wrong.json).toMatchObject({ turn: 1, status: "active", ended: false })
      expect(Object.keys(wrong.json).sort()).toEqual(["ended", "messages", "sessionId", "status", "traceId", "turn"])
      const done = yield* turnPublic(page, sessionId, { text: "big" }, "t2")
      expect(done.json).toMatchObject({
        turn: 2,
        status: "ended",
        ended: true,
        messages: [{ type: "end", text: "One large coming up.", outcome: "ordered", nodeId: "bye" }]
      })
      const late = yield* turnPublic(page, sessionId, { text: "more" }, "t3")
      expect(late.status).toBe(409)
      expect(late.json._tag).toBe("RuntimeSessionEnded")

      // The transcript, for a widget that reconnects: no variables in it.
      const read = yield* readPublic(page, sessionId)
      expect(read.status).toBe(200)
      expect(read.json).toMatchObject({ sessionId, status: "ended", ended: true, turn: 2 })
      expect(read.json.transcript.map((entry: any) => [entry.role, entry.turn])).toEqual([
        ["bot", 0],
        ["user", 1],
        ["bot", 1],
        ["user", 2],
        ["bot", 2]
      ])
      expect(read.text).not.toContain("variables")
      expect(Object.keys(read.json)).not.toContain("session")

      // A test session of the draft sees the draft's new greeting.
      const draft = yield* post("/v1/runtime/sessions", { agentId }, owner)
      expect(draft.json.messages[0].text).toBe("The draft changed.")
    }))

  it.effect("turns are exactly-once per Idempotency-Key", () =>
    Effect.gen(function*() {
      const { page } = yield* deployedShop()
      const sessionId = (yield* startPublic(page)).json.sessionId as string
      const first = yield* turnPublic(page, sessionId, { text: "medium" }, "same-key")
      const retried = yield* turnPublic(page, sessionId, { text: "medium" }, "same-key")
      expect(retried.status).toBe(200)
      expect(retried.json).toEqual(first.json)
      const reused = yield* turnPublic(page, sessionId, { text: "small" }, "same-key")
      expect(reused.json._tag).toBe("IdempotencyKeyReused")
      // Ten identical requests at once advance the conversation once.
      const burst = yield* Effect.all(
        Array.from({ length: 10 }, () => turnPublic(page, sessionId, { payload: "small" }, "burst")),
        { concurrency: "unbounded" }
      )
      const answered = burst.filter((res) => res.status === 200)
      expect(answered.length).toBeGreaterThan(0)
      for (const res of answered) expect(res.json).toEqual(answered[0]!.json)
      expect(answered[0]!.json).toMatchObject({ turn: 2, status: "ended" })
      const read = yield* readPublic(page, sessionId)
      expect(
        read.json.transcript.filter((entry: any) => entry.role === "user").map((entry: any) => entry.idempotencyKey)
      )
        .toEqual(["same-key", "burst"])
    }))

  it.effect("the token must be a live deployment's embed token; revoking stops it at once", () =>
    Effect.gen(function*() {
      const { deployment, owner, page } = yield* deployedShop()
      for (
        const token of [undefined, "", "pat_abc", `cdp_${"x".repeat(10)}`, `cdp_${"A".repeat(43)}`, owner.token]
      ) {
        const res = yield* startPublic({ origin: SHOP, ...(token === undefined ? {} : { token }) })
        expect(res.status, String(token)).toBe(401)
        expect(res.json._tag).toBe("Unauthenticated")
      }
      const sessionId = (yield* startPublic(page)).json.sessionId as string
      expect((yield* turnPublic(page, sessionId, { text: "medium" }, "before")).status).toBe(200)

      const revoked = yield* post(`/v1/deployments/${deployment.id}/revoke`, {}, owner)
      expect(revoked.status).toBe(200)
      const turn = yield* turnPublic(page, sessionId, { text: "small" }, "after")
      expect(turn.status).toBe(401)
      expect(turn.json.message).toMatch(/revoked/)
      expect((yield* readPublic(page, sessionId)).status).toBe(401)
      expect((yield* startPublic(page)).status).toBe(401)
      // Even a retry of a turn answered before is refused now.
      expect((yield* turnPublic(page, sessionId, { text: "medium" }, "before")).status).toBe(401)
    }))

  it.effect("the page's Origin must be allowed; preflights are answered and answers name the origin", () =>
    Effect.gen(function*() {
      const { page } = yield* deployedShop()
      const evil = yield* startPublic({ ...page, origin: "https://evil.example.com" })
      expect(evil.status).toBe(403)
      expect(evil.json).toMatchObject({ _tag: "Forbidden", message: expect.stringMatching(/evil\.example\.com/) })
      expect(evil.headers["access-control-allow-origin"]).toBe("https://evil.example.com")
      const none = yield* startPublic({ token: page.token! })
      expect(none.status).toBe(403)
      const upper = yield* startPublic({ ...page, origin: "https://SHOP.example.com" })
      expect(upper.status).toBe(201)
      const ok = yield* startPublic(page)
      expect(ok.status).toBe(201)
      expect(ok.headers["access-control-allow-origin"]).toBe(SHOP)
      expect(ok.headers["access-control-expose-headers"]).toContain("x-trace-id")
      expect(ok.headers["vary"]).toContain("Origin")

      const preflight = yield* exchange(
        HttpClientRequest.make("OPTIONS")(`/v1/public/runtime/sessions/${ok.json.sessionId}/turns`).pipe(
          HttpClientRequest.setHeaders({
            origin: SHOP,
            "access-control-request-method": "POST",
            "access-control-request-headers": "authorization, content-type, idempotency-key"
          })
        )
      )
      expect(preflight.status).toBe(204)
      expect(preflight.headers["access-control-allow-origin"]).toBe(SHOP)
      expect(preflight.headers["access-control-allow-methods"]).toContain("POST")
      expect(preflight.headers["access-control-allow-headers"]).toContain("idempotency-key")
      expect(preflight.headers["access-control-allow-headers"]).toContain("authorization")
      expect(preflight.headers["access-control-allow-credentials"]).toBeUndefined()
      // Authenticated routes get no CORS headers.
      const agents = yield* exchange(
        HttpClientRequest.get("/v1/agents").pipe(HttpClientRequest.setHeader("origin", SHOP))
      )
      expect(agents.headers["access-control-allow-origin"]).toBeUndefined()

      // A wildcard deployment answers any page, and requests without an Origin.
      const open = yield* deployedShop({ allowedOrigins: ["*"] })
      expect((yield* startPublic({ token: open.page.token! })).status).toBe(201)
      expect((yield* startPublic({ ...open.page, origin: "https://anyone.example.org" })).status).toBe(201)
    }))

  it.effect("each token has its rate limit: over it, a typed 429 with Retry-After", () =>
    Effect.gen(function*() {
      const { page } = yield* deployedShop({ rateLimitPerMinute: 3 })
      const sessionId = (yield* startPublic(page)).json.sessionId as string
      expect((yield* turnPublic(page, sessionId, { text: "medium" }, "r1")).status).toBe(200)
      expect((yield* readPublic(page, sessionId)).status).toBe(200)
      const limited = yield* turnPublic(page, sessionId, { text: "small" }, "r2")
      expect(limited.status).toBe(429)
      expect(limited.json).toMatchObject({ _tag: "RateLimited", retryAfterSeconds: expect.any(Number) })
      expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0)
      expect(limited.headers["access-control-allow-origin"]).toBe(SHOP)
      // Another deployment's token has its own budget.
      const other = yield* deployedShop({ rateLimitPerMinute: 3 })
      expect((yield* startPublic(other.page)).status).toBe(201)
    }))

  it.effect("a session is visible to its own deployment's token only", () =>
    Effect.gen(function*() {
      const { agentId, owner, page } = yield* deployedShop()
      const sessionId = (yield* startPublic(page)).json.sessionId as string
      // Another deployment of the same Assistant, in the same workspace.
      const sibling = yield* deployed(owner, agentId, { allowedOrigins: [SHOP] })
      const siblingPage = { token: sibling.token, origin: SHOP }
      const turn = yield* turnPublic(siblingPage, sessionId, { text: "small" }, "k")
      expect(turn.status).toBe(404)
      expect(turn.json._tag).toBe("RuntimeSessionNotFound")
      expect((yield* readPublic(siblingPage, sessionId)).status).toBe(404)
      // An editor's draft session is not a public one.
      const draft = yield* post("/v1/runtime/sessions", { agentId }, owner)
      expect((yield* readPublic(page, draft.json.sessionId)).status).toBe(404)
      expect((yield* turnPublic(page, draft.json.sessionId, { text: "small" }, "k")).status).toBe(404)
      // And a public session is not found through the other deployment even with the owner's key and body.
      expect((yield* turnPublic(page, sessionId, { text: "small" }, "k")).status).toBe(200)
      expect((yield* turnPublic(siblingPage, sessionId, { text: "small" }, "k")).status).toBe(404)
      // Editors read it through the authenticated route (the workspace's own data)...
      const asOwner = yield* exchange(as(HttpClientRequest.get(`/v1/runtime/sessions/${sessionId}`), owner))
      expect(asOwner.json.session).toMatchObject({ source: "deployment", agentId })
      // ...but cannot talk in a visitor's conversation, even repeating the visitor's key and body.
      for (const text of ["large", "small"]) {
        const editorTurn = yield* exchange(
          as(HttpClientRequest.post(`/v1/runtime/sessions/${sessionId}/turns`), owner).pipe(
            HttpClientRequest.setHeader("idempotency-key", "k"),
            HttpClientRequest.bodyUnsafeJson({ text })
          )
        )
        expect(editorTurn.status).toBe(404)
        expect(editorTurn.json._tag).toBe("RuntimeSessionNotFound")
      }
      const transcript = (yield* readPublic(page, sessionId)).json.transcript as ReadonlyArray<{ role: string }>
      expect(transcript.filter((entry) => entry.role === "user")).toHaveLength(1)
    }))

  it.effect("a snapshot this version cannot run answers 503 to the visitor, not a 500 or the flow's findings", () =>
    Effect.gen(function*() {
      const { deployment, page } = yield* deployedShop()
      const sql = yield* SqlClient.SqlClient
      // What an engine upgrade that no longer accepts a snapshot looks like: its start node gone.
      yield* sql`
        UPDATE deployments
        SET snapshot = jsonb_set(snapshot, '{flow,nodes}',
          (SELECT jsonb_agg(node) FROM jsonb_array_elements(snapshot -> 'flow' -> 'nodes') node
           WHERE node ->> 'type' <> 'start'))
        WHERE id = ${deployment.id}`
      const start = yield* startPublic(page)
      expect(start.status).toBe(503)
      expect(start.json).toMatchObject({
        _tag: "NotReady",
        message: "This Assistant is unavailable until it is deployed again"
      })
    }))

  it.effect("bodies are strict", () =>
    Effect.gen(function*() {
      const { page } = yield* deployedShop()
      expect((yield* startPublic(page, { agentId: "x" })).status).toBe(400)
      expect((yield* startPublic(page, { locale: "not a tag" })).status).toBe(400)
      const sessionId = (yield* startPublic(page)).json.sessionId as string
      expect((yield* turnPublic(page, sessionId, { text: "a", payload: "b", extra: 1 }, "k")).status).toBe(400)
      expect((yield* turnPublic(page, sessionId, { text: "   " }, "k")).status).toBe(400)
      expect((yield* turnPublic(page, "not-a-uuid", { text: "a" }, "k")).status).toBe(400)
    }))
})
