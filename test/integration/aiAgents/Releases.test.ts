/**
 * Releasing an AI agent over HTTP against the real database: publish makes
 * version 1 live and shows the public token once, a second publish makes
 * version 2, the version's snapshot does not follow later draft edits,
 * rollback makes version 1 live without a new version (and is audited), a
 * rotation refuses the old token at once, a bad draft lists every problem,
 * and two publishes from one revision: one wins.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Either } from "effect"
import type { Revision } from "../../../src/domain/Revision.js"
import { PublicAgents } from "../../../src/services/aiAgents/PublicAgents.js"
import { signUp } from "../../support/Accounts.js"
import { clientOf } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { agentRow, revisionOf } from "./AgentRows.js"

const noHeaders = { headers: {} } as const

layer(testServer(), { excludeTestServices: true })("AI agent releases", (it) => {
  it.effect("publish, versions, rollback, rotation, embed and history", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const agent = yield* agentRow(owner.workspaceId)
      const path = { slug: agent.slug }
      yield* sql`UPDATE ai_agents SET instructions = 'Help customers' WHERE id = ${agent.id}`

      const notYet = yield* client.aiAgentReleases.rotatePublicToken({ path }).pipe(Effect.flip)
      expect(notYet._tag).toBe("AiAgentNotPublished")

      const first = yield* client.aiAgentReleases.publish({ path, payload: { notes: "first" }, ...noHeaders })
      expect(first.version.number).toBe(1)
      expect(first.version.live).toBe(true)
      expect(first.agent.liveVersion).toBe(1)
      expect(first.agent.hasUnpublishedChanges).toBe(false)
      expect(first.publicToken).toMatch(/^agt_[A-Za-z0-9_-]{43}$/)
      expect(first.evalGate).toBeNull()
      const token1 = first.publicToken!
      const [stored] = yield* sql<{ publicTokenHash: string }>`SELECT public_token_hash FROM ai_agents
        WHERE id = ${agent.id}`
      expect(stored!.publicTokenHash).toMatch(/^[0-9a-f]{64}$/)
      expect(stored!.publicTokenHash).not.toContain(token1)

      const publics = yield* Effect.provide(PublicAgents, PublicAgents.Default)
      expect((yield* publics.byToken(token1)).version).toBe(1)

      // A draft edit is not live until a publish: version 1's snapshot is unchanged.
      yield* sql`UPDATE ai_agents SET instructions = 'Help customers politely', revision = revision + 1
        WHERE id = ${agent.id}`
      expect((yield* publics.byToken(token1)).snapshot.instructions).toBe("Help customers")

      const second = yield* client.aiAgentReleases.publish({
        path,
        payload: {},
        headers: { "if-match": (yield* revisionOf(agent.id)) as Revision }
      })
      expect(second.version.number).toBe(2)
      expect(second.publicToken).toBeNull()
      expect((yield* publics.byToken(token1)).snapshot.instructions).toBe("Help customers politely")
      expect((yield* publics.versionSnapshot(agent.id as never, 1))?.instructions).toBe("Help customers")

      const versions = yield* client.aiAgentReleases.listVersions({ path, urlParams: {} })
      expect(versions.items.map((v) => [v.number, v.live])).toEqual([[2, true], [1, false]])

      const rolledBack = yield* client.aiAgentReleases.rollback({ path: { ...path, vid: 1 as never } })
      expect(rolledBack.liveVersion).toBe(1)
      expect((yield* publics.byToken(token1)).version).toBe(1)
      expect((yield* client.aiAgentReleases.listVersions({ path, urlParams: {} })).total).toBe(2)
      const missing = yield* client.aiAgentReleases.rollback({ path: { ...path, vid: 9 as never } }).pipe(Effect.flip)
      expect(missing._tag).toBe("AiAgentVersionNotFound")

      const rotated = yield* client.aiAgentReleases.rotatePublicToken({ path })
      expect(rotated.hint).toBe(`agt_...${rotated.publicToken.slice(-4)}`)
      const old = yield* publics.byToken(token1).pipe(Effect.either)
      expect(Either.isLeft(old) && old.left._tag).toBe("PublicAgentNotFound")
      expect((yield* publics.byToken(rotated.publicToken)).agent.id).toBe(agent.id)
      expect(Either.isLeft(yield* publics.byToken("agt_nope").pipe(Effect.either))).toBe(true)

      const embed = yield* client.aiAgentReleases.getEmbed({ path })
      expect(embed.live).toBe(true)
      expect(embed.turnUrl).toContain("/v1/public/ai-agents/{{PUBLIC_TOKEN}}/turn")
      expect(embed.snippet).toContain("{{PUBLIC_TOKEN}}")
      expect(embed.snippet).not.toContain(rotated.publicToken)

      const events = yield* client.aiAgentReleases.listAuditEvents({ path, urlParams: {} })
      expect(events.items.map((e) => e.action)).toEqual([
        "ai-agent.public-token-rotated",
        "ai-agent.rolled-back",
        "ai-agent.published",
        "ai-agent.published"
      ])
      expect(events.items[1]).toMatchObject({ version: 1, previousVersion: 2, summary: "Rolled back to version 1" })
    }))

  it.effect("a bad draft lists every problem; two publishes from one revision: one wins; other workspaces", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const agent = yield* agentRow(owner.workspaceId)
      const path = { slug: agent.slug }
      yield* sql`UPDATE ai_agents SET model_settings = model_settings || '{"toolChoice":{"tool":"lookup"},
        "model":{"source":"explicit","provider":"anthropic","model":"claude-x"}}'::jsonb WHERE id = ${agent.id}`
      const refused = yield* client.aiAgentReleases.publish({ path, payload: {}, ...noHeaders }).pipe(Effect.flip)
      expect(refused._tag).toBe("AiAgentDraftNotPublishable")
      const codes = refused._tag === "AiAgentDraftNotPublishable" ? refused.problems.map((p) => p.code) : []
      expect(codes).toEqual(expect.arrayContaining(["no-instructions", "unknown-tool-choice", "model-unresolvable"]))

      yield* sql`UPDATE ai_agents SET instructions = 'Help', model_settings = model_settings - 'toolChoice' - 'model'
        WHERE id = ${agent.id}`
      const revision = (yield* revisionOf(agent.id)) as Revision
      const both = yield* Effect.all(
        [1, 2].map(() =>
          client.aiAgentReleases.publish({ path, payload: {}, headers: { "if-match": revision } }).pipe(Effect.either)
        ),
        { concurrency: 2 }
      )
      expect(both.filter(Either.isRight)).toHaveLength(1)
      const lost = both.find(Either.isLeft)
      expect(lost !== undefined && Either.isLeft(lost) && lost.left._tag).toBe("RevisionConflict")

      const stranger = yield* clientOf(yield* signUp())
      const hidden = yield* stranger.aiAgentReleases.publish({ path, payload: {}, ...noHeaders }).pipe(Effect.flip)
      expect(hidden._tag).toBe("AiAgentNotFound")
    }))
})
