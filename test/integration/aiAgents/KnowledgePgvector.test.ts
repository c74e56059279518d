/**
 * Knowledge vectors ranked by pgvector on the embedded database (PGlite with
 * `@electric-sql/pglite-pgvector`, migration 0025). In this process, on a
 * fresh PGlite: vectors stored before migration 0025 are copied into its
 * `vector` column, new ones are written there too, and the repository's
 * nearest chunks (pgvector's `<=>`) are exactly those the exact cosine in
 * Parley finds over the same vectors (`VectorRanking.nearest`), leaving out
 * another model's vectors, vectors of another length and disabled documents.
 * Then through the bundle (`.build/main.js`) on the embedded default, with a
 * fake embeddings provider (`FakeEmbeddings.ts`): a query none of whose words
 * is in the right document finds it by its vector alone.
 */
import { NodeContext } from "@effect/platform-node"
import { Migrator, SqlClient } from "@effect/sql"
import { PgMigrator } from "@effect/sql-pg"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, String } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { v7 as uuidv7 } from "uuid"
import type { AiAgentId, AiAgentKnowledgeId } from "../../../src/domain/aiAgents/Ids.js"
import {
  fromBytes,
  nearest,
  normalized,
  type QueryVector,
  toBytes
} from "../../../src/domain/aiAgents/knowledge/VectorRanking.js"
import { KnowledgeIndexRepo } from "../../../src/persistence/aiAgents/KnowledgeIndexRepo.js"
import { KnowledgeVectorRepo } from "../../../src/persistence/aiAgents/KnowledgeVectorRepo.js"
import { hasPgvector } from "../../../src/persistence/aiAgents/PgVector.js"
import * as PgliteClient from "../../../src/persistence/PgliteClient.js"
import { migrations } from "../../../src/persistence/Sql.js"
import { signUpAt } from "../../support/Conversations.js"
import { makeFakeEmbeddings } from "../../support/FakeEmbeddings.js"
import { startParley, withEmbeddedParley } from "../../support/ParleyProcess.js"

const DIMENSIONS = 16
const CHUNKS_PER_DOCUMENT = 6

/** A deterministic pseudo-random source (mulberry32). */
const random = (() => {
  let state = 25
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
})()
const unitVector = (dimensions = DIMENSIONS) => normalized(Array.from({ length: dimensions }, () => random() - 0.5))

/** The migrations up to `last` (all without it), run now. */
const migrate = (last?: number) =>
  PgMigrator.run({
    loader: Migrator.fromRecord(
      Object.fromEntries(
        Object.entries(migrations).filter(([id]) => last === undefined || Number.parseInt(id, 10) <= last)
      )
    )
  })

const embedded = Layer.mergeAll(
  PgliteClient.layer({
    dataDir: Fs.mkdtempSync(Path.join(Os.tmpdir(), "parley-pgvector-")),
    transformQueryNames: String.camelToSnake,
    transformResultNames: String.snakeToCamel,
    transformJson: false
  }),
  NodeContext.layer
)

/** A workspace and an agent, inserted as the knowledge benchmark does. */
const agentOf = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const workspaceId = uuidv7()
  const agentId = uuidv7() as AiAgentId
  const now = new Date()
  yield* sql`INSERT INTO workspaces (id, slug, name, created_at, updated_at)
    VALUES (${workspaceId}, ${`ws-${workspaceId}`}, 'Vectors', ${now}, ${now})`
  yield* sql`INSERT INTO ai_agents (id, workspace_id, slug, name, description, instructions, model_settings,
      conversation, embed, created_at, updated_at)
    VALUES (${agentId}, ${workspaceId}, ${`agent-${agentId}`}, 'Vectors', '', '', '{}'::jsonb, '{}'::jsonb,
      '{}'::jsonb, ${now}, ${now})`
  return { workspaceId, agentId }
})

/** An indexed document of `CHUNKS_PER_DOCUMENT` chunks, each with a vector of `model` (`dimensions` long). */
const documentWithVectors = (
  owner: { readonly workspaceId: string; readonly agentId: AiAgentId },
  model: string,
  dimensions = DIMENSIONS
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const index = yield* KnowledgeIndexRepo
    const vectors = yield* KnowledgeVectorRepo
    const id = uuidv7() as AiAgentKnowledgeId
    const now = new Date()
    const texts = Array.from({ length: CHUNKS_PER_DOCUMENT }, (_, i) => `Passage ${i} of ${id}.`)
    const content = texts.join("\n")
    yield* sql`INSERT INTO ai_agent_knowledge (id, workspace_id, agent_id, kind, title, content, status,
        created_at, updated_at)
      VALUES (${id}, ${owner.workspaceId}, ${owner.agentId}, 'text', ${id}, ${content}, 'pending', ${now}, ${now})`
    let offset = 0
    const chunks = texts.map((text, ordinal) => {
      const chunk = { ordinal, heading: "", start: offset, end: offset + text.length, text }
      offset += text.length + 1
      return chunk
    })
    yield* index.store((yield* index.claim(id))!, null, content.length, chunks, now)
    const stored = yield* vectors.store(
      (yield* vectors.document(id))!,
      model,
      chunks.map((chunk) => ({ ordinal: chunk.ordinal, embedding: toBytes(unitVector(dimensions)) }))
    )
    expect(stored).toBe(true)
    return id
  })

/** Each stored vector beside its `vector` column read back as float32 values (null: none; pgvector prints float4s). */
const bothCopies = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ embedding: Uint8Array; copy: string | null }>`SELECT embedding,
    embedding_vector::text AS copy FROM ai_agent_knowledge_vectors`
  return rows.map((row) => ({
    bytes: Array.from(fromBytes(row.embedding)),
    copy: row.copy === null ? null : Array.from(Float32Array.from(JSON.parse(row.copy) as Array<number>))
  }))
})

layer(embedded, { excludeTestServices: true, timeout: 120_000 })("knowledge vectors on PGlite", (it) => {
  it.effect("pgvector keeps a copy of every vector and ranks them as the exact cosine in Parley does", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // Before migration 0025: vectors in bytes only.
      yield* migrate(24)
      const repos = Layer.mergeAll(KnowledgeIndexRepo.Default, KnowledgeVectorRepo.Default)
      const owner = yield* agentOf
      const before = yield* Effect.provide(
        Effect.all([documentWithVectors(owner, "m1"), documentWithVectors(owner, "m1")]),
        repos
      )
      expect(yield* hasPgvector(sql)).toBe(false)

      // Migration 0025 creates the extension, adds the column and copies the stored vectors, value for value.
      yield* migrate()
      expect(yield* hasPgvector(sql)).toBe(true)
      // Kept in the row (not moved out of line beside the bytes): the scan reads it there.
      const [storage] = yield* sql<{ attstorage: string }>`SELECT attstorage FROM pg_attribute
        WHERE attrelid = 'ai_agent_knowledge_vectors'::regclass AND attname = 'embedding_vector'`
      expect(storage?.attstorage).toBe("m")
      const copied = yield* bothCopies
      expect(copied.length).toBe(2 * CHUNKS_PER_DOCUMENT)
      for (const row of copied) expect(row.copy).toEqual(row.bytes)

      yield* Effect.gen(function*() {
        const vectors = yield* KnowledgeVectorRepo
        // Stored from now on: in both.
        const more = yield* documentWithVectors(owner, "m1")
        const otherModel = yield* documentWithVectors(owner, "m2")
        const otherLength = yield* documentWithVectors(owner, "m1", DIMENSIONS + 4)
        const disabled = yield* documentWithVectors(owner, "m1")
        yield* sql`UPDATE ai_agent_knowledge SET enabled = false WHERE id = ${disabled}`
        const all = yield* bothCopies
        expect(all.length).toBe(6 * CHUNKS_PER_DOCUMENT)
        for (const row of all) expect(row.copy).toEqual(row.bytes)

        /** The exact cosine in Parley over the scope's stored vectors: what pgvector must find. */
        const reference = (scope: Parameters<typeof vectors.vectors>[0], query: QueryVector, limit: number) =>
          Effect.map(vectors.vectors(scope, query.model), (rows) =>
            nearest(
              query.embedding,
              rows.map((row) => ({
                key: { documentId: row.documentId, ordinal: row.ordinal },
                vector: fromBytes(row.embedding)
              })),
              limit
            ).map(({ item }) => item.key))
        const everything = { agentId: owner.agentId, documentIds: null }
        for (let round = 0; round < 10; round++) {
          const query = { model: "m1", embedding: unitVector() }
          const found = yield* vectors.nearest(everything, query, 8)
          expect(found).toEqual(yield* reference(everything, query, 8))
          expect(found.length).toBe(8)
          for (const key of found) expect([...before, more]).toContain(key.documentId)
        }
        // All of the scope's chunks, best first; then a scope of some documents, another model.
        const query = { model: "m1", embedding: unitVector() }
        const ranked = yield* vectors.nearest(everything, query, 50)
        expect(ranked.length).toBe(3 * CHUNKS_PER_DOCUMENT)
        expect(ranked).toEqual(yield* reference(everything, query, 50))
        const some = { agentId: owner.agentId, documentIds: [before[1], more, disabled] }
        expect(new Set((yield* vectors.nearest(some, query, 50)).map((key) => key.documentId)))
          .toEqual(new Set([before[1], more]))
        const second = { model: "m2", embedding: unitVector() }
        expect(yield* vectors.nearest(everything, second, 3)).toEqual(yield* reference(everything, second, 3))
        const longer = { model: "m1", embedding: unitVector(DIMENSIONS + 4) }
        expect(new Set((yield* vectors.nearest(everything, longer, 50)).map((key) => key.documentId)))
          .toEqual(new Set([otherLength]))
        // The stored vector replaced (another model's, re-embedded): the copy follows.
        const document = (yield* vectors.document(otherModel))!
        yield* vectors.store(document, "m1", [{ ordinal: 0, embedding: toBytes(query.embedding) }])
        expect((yield* vectors.nearest(everything, query, 1))[0]).toEqual({ documentId: otherModel, ordinal: 0 })
        // The ranking reads the `vector` column, not the bytes: without its copies a document is not ranked.
        yield* sql`UPDATE ai_agent_knowledge_vectors SET embedding_vector = NULL WHERE document_id = ${more}`
        const ranking = yield* vectors.nearest(everything, query, 50)
        expect(ranking.length).toBe(2 * CHUNKS_PER_DOCUMENT + 1)
        expect(ranking.map((key) => key.documentId)).not.toContain(more)
      }).pipe(Effect.provide(repos))
    }))

  it.scoped(
    "the bundle on the embedded database finds a document by its vector alone",
    () =>
      Effect.gen(function*() {
        const fake = yield* makeFakeEmbeddings
        const start = (args: ReadonlyArray<string>, env: Record<string, string>) =>
          startParley(args, { ...env, PARLEY_TOOL_ALLOWED_HOSTS: "127.0.0.1/32" })
        yield* Effect.promise(() =>
          withEmbeddedParley(start, 60_000, async ({ base }) => {
            const token = await signUpAt(base)
            const call = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
              const response = await fetch(`${base}${path}`, {
                method,
                headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
                ...(body === undefined ? {} : { body: JSON.stringify(body) }),
                signal: AbortSignal.timeout(30_000)
              })
              return { status: response.status, json: await response.json() as any }
            }
            const embeddings = { provider: "openai-compatible", baseUrl: fake.baseUrl, model: "hash-1" }
            expect((await call("PATCH", "/v1/workspaces/agent-llm", { embeddings })).status).toBe(200)
            const slug = `vectors-${process.pid}`
            expect((await call("POST", "/v1/ai-agents", { slug, name: "Shop", instructions: "Answer." })).status)
              .toBe(201)
            const upload = async (title: string, content: string) => {
              const created = await call("POST", `/v1/ai-agents/${slug}/knowledge`, {
                kind: "markdown",
                title,
                content
              })
              expect(created.status).toBe(201)
              for (let attempt = 0; attempt < 400; attempt++) {
                const found = await call("GET", `/v1/ai-agents/${slug}/knowledge/${created.json.id}`)
                if (found.json.status === "ready" || found.json.status === "failed") return found.json
                await new Promise((resolve) => setTimeout(resolve, 50))
              }
              throw new Error(`document ${created.json.id} was never indexed`)
            }
            const returns = await upload(
              "Returns",
              "# Returns\n\nWe refund every order within 30 days. The refund goes back to the card that paid."
            )
            const shipping = await upload(
              "Shipping",
              "# Shipping\n\nParcels leave the warehouse every weekday at noon."
            )
            expect([returns.status, shipping.status]).toEqual(["ready", "ready"])
            expect(
              (await call("POST", `/v1/ai-agents/${slug}/tools`, {
                name: "knowledge_search",
                config: { kind: "builtin", builtin: "knowledge_search" }
              })).status
            ).toBe(201)
            let turns = 0
            const search = async (query: string) => {
              const answer = await call(
                "POST",
                `/v1/ai-agents/${slug}/playground`,
                { message: `/call knowledge_search ${JSON.stringify({ query })}` },
                { "idempotency-key": `turn-${++turns}` }
              )
              expect(answer.status).toBe(200)
              return answer.json.toolCalls[0].result.results as Array<{ documentId: string; text: string }>
            }
            // "reimbursement" is no word of any document: only its vector (the concept "refund") finds Returns.
            const hits = await search("reimbursement")
            expect(hits[0]).toMatchObject({ documentId: returns.id })
            expect(hits[0]!.text).toContain("refund every order")
            expect((await search("parcels warehouse"))[0]!.documentId).toBe(shipping.id)
          })
        )
        expect(fake.requests.some((request) => request.input.includes("reimbursement"))).toBe(true)
      }),
    { timeout: 180_000 }
  )
})
