/**
 * Public turns of a live AI agent over HTTP against the real database, as a
 * widget on a customer's page sends them (no credential but the public
 * token): a turn starts a conversation and the next continues it; a retry
 * with the same Idempotency-Key answers the stored turn, another body with it
 * is refused; the embed's allowed origins (403) and the workspace's rate
 * limits per end user (429 with Retry-After) hold; a rotated or unknown
 * token is a 404 (a malformed one a 400); a conversation of another end user or of the playground is
 * not found; text that cannot be stored is a 400 and stores nothing; a CORS
 * preflight is answered. The model is the embedded default's offline one.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { AiAgentCreate } from "../../../src/domain/aiAgents/AiAgent.js"
import { AgentOpsSettingsPatch } from "../../../src/domain/settings/AgentOpsSettings.js"
import { signUp } from "../../support/Accounts.js"
import { exchange, HttpClientRequest, postRaw } from "../../support/Http.js"
import { clientOf } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"

let count = 0
const slugOf = (label: string) => `${label}-${process.pid}-${++count}`
const agent = (fields: Record<string, unknown>) => Schema.decodeUnknownSync(AiAgentCreate)(fields)

/** A public turn as a page sends it: from `origin`, optionally with a key. */
const turn = (
  token: string,
  body: unknown,
  options: { readonly origin?: string; readonly key?: string; readonly address?: string } = {}
) =>
  exchange(
    postRaw(`/v1/public/ai-agents/${token}/turn`, typeof body === "string" ? body : JSON.stringify(body)).pipe(
      options.origin === undefined ? (r) => r : HttpClientRequest.setHeader("origin", options.origin),
      options.key === undefined ? (r) => r : HttpClientRequest.setHeader("idempotency-key", options.key),
      HttpClientRequest.setHeader("x-forwarded-for", options.address ?? `203.0.113.${(++count % 250) + 1}`)
    )
  )

/** The token of the latest `published` agent's owner. */
const ownerToken: { current: string | undefined } = { current: undefined }

/** A published agent of a new workspace: its owner's client, slug and public token. */
const published = (fields: Record<string, unknown> = {}) =>
  Effect.gen(function*() {
    const owner = yield* signUp()
    ownerToken.current = owner.token
    const client = yield* clientOf(owner)
    const slug = slugOf("public")
    yield* client.aiAgents.create({ payload: agent({ slug, name: "Shop help", instructions: "Help.", ...fields }) })
    const release = yield* client.aiAgentReleases.publish({ path: { slug }, payload: {}, headers: {} })
    return { owner, client, slug, token: release.publicToken! }
  })

layer(testServer(), { excludeTestServices: true, timeout: 120_000 })("public AI agent turns", (it) => {
  it.effect("a turn starts a conversation, the next continues it; a retry answers the stored turn", () =>
    Effect.gen(function*() {
      const { client, slug, token } = yield* published()
      const first = yield* turn(token, { message: "hello", endUserId: "user-1", metadata: { page: "/cart" } }, {
        key: "k-1"
      })
      expect(first.status).toBe(200)
      expect(first.json).toMatchObject({ outcome: "answered", handoff: false, version: 1, guardrails: [] })
      expect(first.json.message.content.length).toBeGreaterThan(0)
      // Nothing internal reaches the end user.
      expect(Object.keys(first.json).sort()).toEqual(
        ["conversationId", "guardrails", "handoff", "message", "outcome", "traceId", "version"]
      )
      const conversationId = first.json.conversationId

      // The same key and body (a client that gave up waiting): the stored answer, one turn.
      const again = yield* turn(token, { message: "hello", endUserId: "user-1", metadata: { page: "/cart" } }, {
        key: "k-1"
      })
      expect(again.status).toBe(200)
      expect(again.json.conversationId).toBe(conversationId)
      expect(again.json.message).toEqual(first.json.message)
      // The same key with another body: refused.
      const reused = yield* turn(token, { message: "something else", endUserId: "user-1" }, { key: "k-1" })
      expect(reused.status).toBe(409)
      expect(reused.json._tag).toBe("IdempotencyKeyReused")

      const next = yield* turn(token, {
        conversationId,
        message: "and then?",
        endUserId: "user-1",
        metadata: { page: "/checkout", plan: "pro" }
      }, { key: "k-2" })
      expect(next.status).toBe(200)
      expect(next.json.conversationId).toBe(conversationId)

      // The owner sees one web conversation of two turns, on version 1, with its metadata.
      const detail = yield* client.aiAgentConversations.getConversation({
        path: { slug: slug as never, convo_slug: conversationId }
      })
      expect(detail).toMatchObject({ channel: "web", version: 1, endUserId: "user-1", turns: 2 })
      // A later turn's metadata merges into the conversation's, its keys winning.
      expect(detail.metadata).toEqual({ page: "/checkout", plan: "pro" })
      const many = Object.fromEntries(Array.from({ length: 19 }, (_, i) => [`k${i}`, "v"]))
      const tooMany = yield* turn(token, { conversationId, message: "more", endUserId: "user-1", metadata: many })
      expect(tooMany.status).toBe(400)
      const unchanged = yield* client.aiAgentConversations.getConversation({
        path: { slug: slug as never, convo_slug: conversationId }
      })
      expect(unchanged.metadata).toEqual({ page: "/checkout", plan: "pro" })
      expect(unchanged.turns).toBe(2)
      expect(detail.messages.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["hello", "and then?"])

      // Another end user cannot continue it; a playground conversation is not public.
      const stranger = yield* turn(token, { conversationId, message: "hi", endUserId: "user-2" })
      expect(stranger.status).toBe(404)
      expect(stranger.json._tag).toBe("AiAgentConversationNotFound")
      const playground = yield* client.aiAgents.playground({
        path: { slug },
        urlParams: { stream: false },
        headers: {},
        payload: { message: "draft test" }
      })
      const notPublic = yield* turn(token, { conversationId: playground.conversationId, message: "hi" })
      expect(notPublic.status).toBe(404)
    }))

  it.effect("?stream=true answers text/event-stream: the reply, then message.done with the JSON form's result", () =>
    Effect.gen(function*() {
      const { slug, token } = yield* published()
      // Each event: `id:` (every one here has an id), `event:`, `data:`.
      const frames = (text: string) =>
        text.split("\n\n").filter((frame) => frame.includes("event: ")).map((frame) => {
          const [id, , data] = frame.split("\n")
          expect(id).toMatch(/^id: (m\d+\.\d+|done)$/)
          return JSON.parse(data!.slice("data: ".length))
        })
      const streamed = yield* exchange(
        postRaw(`/v1/public/ai-agents/${token}/turn?stream=true`, JSON.stringify({ message: "hello" })).pipe(
          HttpClientRequest.setHeader("idempotency-key", "s-1")
        )
      )
      expect(streamed.status).toBe(200)
      expect(streamed.headers["content-type"]).toContain("text/event-stream")
      const events = frames(streamed.text)
      // The reply as it was written (the offline model writes it word by word), then the result.
      const deltas = events.slice(0, -1)
      expect(deltas.length).toBeGreaterThan(1)
      expect(deltas.every((event) => event.type === "message.delta")).toBe(true)
      expect(events.at(-1).type).toBe("message.done")
      const json = yield* turn(token, { message: "hello" }, { key: "s-1" })
      expect(events.at(-1).result).toEqual(json.json)
      expect(deltas.map((event) => event.delta).join("")).toBe(json.json.message.content)

      // The playground streams as well (its failures before the turn are ordinary HTTP errors).
      const owner = yield* exchange(
        postRaw(`/v1/ai-agents/${slug}/playground?stream=true`, JSON.stringify({ message: "hi" })).pipe(
          HttpClientRequest.bearerToken(ownerToken.current!)
        )
      )
      expect(owner.status).toBe(200)
      expect(frames(owner.text).at(-1).type).toBe("message.done")
      const missing = yield* exchange(
        postRaw(`/v1/ai-agents/no-such-agent/playground?stream=true`, JSON.stringify({ message: "hi" })).pipe(
          HttpClientRequest.bearerToken(ownerToken.current!)
        )
      )
      expect(missing.status).toBe(404)
    }))

  it.effect("unknown and rotated tokens are 404; bad bodies and unstorable text are 400 and store nothing", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { client, slug, token } = yield* published()
      const unknown = yield* turn(`agt_${"x".repeat(43)}`, { message: "hi" })
      expect(unknown.status).toBe(404)
      expect(unknown.json._tag).toBe("PublicAgentNotFound")
      // A path that is not a token's shape at all is a malformed request.
      expect((yield* turn("not-a-token", { message: "hi" })).status).toBe(400)

      const before = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM ai_agent_conversations c
        JOIN ai_agents a ON a.id = c.agent_id WHERE a.slug = ${slug}`
      for (const body of [{ message: "nul \u0000 here" }, { message: "lone \uD800 surrogate" }]) {
        const refused = yield* turn(token, body)
        expect(refused.status).toBe(400)
      }
      expect((yield* turn(token, { message: "hi", extra: true })).status).toBe(400)
      expect((yield* turn(token, { message: "" })).status).toBe(400)
      expect((yield* turn(token, "{not json")).status).toBe(400)
      const after = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM ai_agent_conversations c
        JOIN ai_agents a ON a.id = c.agent_id WHERE a.slug = ${slug}`
      expect(after[0]!.n).toBe(before[0]!.n)

      const rotated = yield* client.aiAgentReleases.rotatePublicToken({ path: { slug } })
      expect((yield* turn(token, { message: "hi" })).status).toBe(404)
      expect((yield* turn(rotated.publicToken, { message: "hi" })).status).toBe(200)
    }))

  it.effect("the embed's allowed origins hold; a preflight is answered for any origin", () =>
    Effect.gen(function*() {
      const { token } = yield* published({ embed: { allowedOrigins: ["https://shop.example"] } })
      const allowed = yield* turn(token, { message: "hi" }, { origin: "https://shop.example" })
      expect(allowed.status).toBe(200)
      expect(allowed.headers["access-control-allow-origin"]).toBe("https://shop.example")
      const other = yield* turn(token, { message: "hi" }, { origin: "https://evil.example" })
      expect(other.status).toBe(403)
      expect(other.json._tag).toBe("Forbidden")
      // Its answer still names the origin, so the page can read why.
      expect(other.headers["access-control-allow-origin"]).toBe("https://evil.example")
      const none = yield* turn(token, { message: "hi" })
      expect(none.status).toBe(403)

      const preflight = yield* exchange(
        HttpClientRequest.make("OPTIONS")(`/v1/public/ai-agents/${token}/turn`).pipe(
          HttpClientRequest.setHeader("origin", "https://shop.example"),
          HttpClientRequest.setHeader("access-control-request-method", "POST"),
          HttpClientRequest.setHeader("access-control-request-headers", "content-type, idempotency-key")
        )
      )
      expect(preflight.status).toBe(204)
      expect(preflight.headers["access-control-allow-headers"]).toContain("idempotency-key")
      expect(preflight.headers["access-control-allow-headers"]).toContain("last-event-id")
    }))

  it.effect("the workspace's rate limit per end user answers 429 with Retry-After; other users go on", () =>
    Effect.gen(function*() {
      const { client, token } = yield* published()
      yield* client.agentSettings.updateAgentOps({
        payload: Schema.decodeUnknownSync(AgentOpsSettingsPatch)({ rateLimits: { perEndUserPerMinute: 2 } })
      })
      for (const _ of [1, 2]) {
        expect((yield* turn(token, { message: "hi", endUserId: "chatty" })).status).toBe(200)
      }
      const limited = yield* turn(token, { message: "hi", endUserId: "chatty" })
      expect(limited.status).toBe(429)
      expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0)
      expect((yield* turn(token, { message: "hi", endUserId: "quiet" })).status).toBe(200)
      // Without an end user id, the client's address is the end user.
      for (const _ of [1, 2]) {
        expect((yield* turn(token, { message: "hi" }, { address: "192.0.2.7" })).status).toBe(200)
      }
      expect((yield* turn(token, { message: "hi" }, { address: "192.0.2.7" })).status).toBe(429)
    }))
})
