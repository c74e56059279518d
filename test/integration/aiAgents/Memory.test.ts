/**
 * An AI agent's memory over HTTP against the real database: CRUD, unique
 * keys, expiry (refused in the past, forgotten lazily once passed), the
 * per-scope bound with its eviction order, `remember` and `forPrompt`.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import type { AiAgentConversationId, AiAgentId, EndUserId } from "../../../src/domain/aiAgents/Ids.js"
import { END_USER_FACT_LIMIT } from "../../../src/domain/aiAgents/MemoryBounds.js"
import type { WorkspaceId } from "../../../src/domain/identity/Ids.js"
import { AgentMemory } from "../../../src/services/aiAgents/AgentMemory.js"
import { signUp } from "../../support/Accounts.js"
import { clientOf } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { agentRow, revisionOf } from "./AgentRows.js"

/** A create body with every default given, as the typed client wants it. */
const fact = (fields: Record<string, unknown>) =>
  ({ endUserId: null, key: null, retention: { kind: "forever" }, expiresAt: null, ...fields }) as never

const conversationId = "0190a000-0000-7000-8000-000000000001" as AiAgentConversationId

layer(testServer(), { excludeTestServices: true })("AI agent memory", (it) => {
  it.effect("CRUD, keys, expiry, no revision bump, other workspaces", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const agent = yield* agentRow(owner.workspaceId)
      const path = { slug: agent.slug }
      const kept = yield* client.aiAgentMemory.create({
        path,
        payload: fact({ scope: "agent", content: "Opening hours are 9 to 5", key: "hours" })
      })
      expect(kept).toMatchObject({ content: "Opening hours are 9 to 5", source: "manual", key: "hours" })
      expect(yield* revisionOf(agent.id)).toBe(1)
      const taken = yield* client.aiAgentMemory.create({
        path,
        payload: fact({ scope: "agent", content: "other", key: "hours" })
      }).pipe(Effect.flip)
      expect(taken._tag).toBe("AiAgentMemoryKeyTaken")
      const past = yield* client.aiAgentMemory.create({
        path,
        payload: fact({ scope: "agent", content: "x", expiresAt: DateTime.unsafeMake("2020-01-01T00:00:00Z") })
      }).pipe(Effect.flip)
      expect(past._tag).toBe("ValidationFailed")
      const user = yield* client.aiAgentMemory.create({
        path,
        payload: fact({ scope: "end-user", endUserId: "customer-1", content: "Prefers email", key: "hours" })
      })
      const updated = yield* client.aiAgentMemory.updateById({
        path,
        payload: { id: user.id, content: "Prefers phone" }
      })
      expect(updated.content).toBe("Prefers phone")
      const list = yield* client.aiAgentMemory.list({ path, urlParams: { scope: "end-user" } })
      expect(list.items.map((item) => item.id)).toEqual([user.id])
      // An expired fact is neither answered nor kept.
      yield* sql`UPDATE ai_agent_memory SET expires_at = now() - interval '1 minute' WHERE id = ${kept.id}`
      const gone = yield* client.aiAgentMemory.get({ path: { ...path, memory_id: kept.id } }).pipe(Effect.flip)
      expect(gone._tag).toBe("AiAgentMemoryNotFound")
      expect((yield* client.aiAgentMemory.list({ path, urlParams: {} })).total).toBe(1)
      const [left] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM ai_agent_memory WHERE id = ${kept.id}`
      expect(left!.n).toBe(0)
      yield* client.aiAgentMemory.delete({ path: { ...path, memory_id: user.id } })
      expect((yield* client.aiAgentMemory.list({ path, urlParams: {} })).total).toBe(0)
      const stranger = yield* clientOf(yield* signUp())
      const hidden = yield* stranger.aiAgentMemory.list({ path, urlParams: {} }).pipe(Effect.flip)
      expect(hidden._tag).toBe("AiAgentNotFound")
    }))

  it.effect("the bound evicts the least used conversation facts, never manual ones; forPrompt fits the budget", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const agent = yield* agentRow(owner.workspaceId)
      const memory = yield* Effect.provide(AgentMemory, AgentMemory.Default)
      const agentId = agent.id as AiAgentId
      const workspaceId = owner.workspaceId as WorkspaceId
      const endUserId = "customer-7" as EndUserId
      const remember = (content: string, key: string | null = null) =>
        memory.remember(agentId, workspaceId, {
          scope: "end-user",
          endUserId,
          key,
          content,
          retention: { kind: "forever" },
          conversationId
        })
      expect(
        (yield* memory.remember(agentId, workspaceId, {
          scope: "end-user",
          endUserId: null,
          key: null,
          content: "x",
          retention: { kind: "forever" },
          conversationId
        }))._tag
      ).toBe("NotKept")
      for (let i = 0; i < END_USER_FACT_LIMIT; i++) yield* remember(`fact ${i}`)
      // Facts 0..9 have been used; fact 10 is the least used and oldest of the rest.
      yield* sql`UPDATE ai_agent_memory SET use_count = 1, last_used_at = now()
        WHERE agent_id = ${agent.id} AND content IN ${sql.in(Array.from({ length: 10 }, (_, i) => `fact ${i}`))}`
      const newest = yield* remember("the newest")
      expect(newest).toMatchObject({ _tag: "Kept", evicted: 1 })
      const contents = (yield* sql<{ content: string }>`SELECT content FROM ai_agent_memory
        WHERE agent_id = ${agent.id}`).map((row) => row.content)
      expect(contents).toHaveLength(END_USER_FACT_LIMIT)
      expect(contents).not.toContain("fact 10")
      expect(contents).toContain("fact 0")
      const replaced = yield* remember("likes tea", "drink")
      const again = yield* remember("likes coffee", "drink")
      expect(again).toMatchObject({ _tag: "Kept", replaced: true })
      expect(replaced._tag).toBe("Kept")

      // A scope full of manual facts refuses a manual create, and remember keeps nothing.
      yield* sql`UPDATE ai_agent_memory SET source = 'manual' WHERE agent_id = ${agent.id}`
      const full = yield* client.aiAgentMemory.create({
        path: { slug: agent.slug },
        payload: fact({ scope: "end-user", endUserId: "customer-7", content: "one more" })
      }).pipe(Effect.flip)
      expect(full._tag).toBe("ValidationFailed")
      expect(yield* remember("no room")).toMatchObject({ _tag: "NotKept", reason: "memory-full" })

      const chosen = yield* memory.forPrompt(agentId, endUserId, "coffee please", 10)
      expect(chosen[0]?.key).toBe("drink")
      expect(chosen.reduce((sum, f) => sum + Math.ceil(`${f.key ? `${f.key}: ` : ""}${f.content}`.length / 4), 0))
        .toBeLessThanOrEqual(10)
      const [used] = yield* sql<{ useCount: number }>`SELECT use_count FROM ai_agent_memory WHERE key = 'drink'
        AND agent_id = ${agent.id}`
      expect(used!.useCount).toBe(1)
    }))
})
