/**
 * The knowledge index's statistics against the real PostgreSQL (and once on
 * the embedded one): the chunk and lexeme counts BM25 reads stay exactly what
 * counting the chunks gives, through indexing, re-indexing, a failed
 * indexing, a chunk rewritten, a document, an agent and a workspace deleted
 * (by cascade), and several indexers storing documents of one agent at once;
 * the frequencies a search reads are the chunks' own; a search leaves out
 * the chunks of documents that are not searchable even when they rank first.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, String } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { v7 as uuidv7 } from "uuid"
import type { AiAgentId, AiAgentKnowledgeId } from "../../../src/domain/aiAgents/Ids.js"
import { chunkText } from "../../../src/domain/aiAgents/knowledge/Chunking.js"
import type { WorkspaceId } from "../../../src/domain/identity/Ids.js"
import { AiAgentKnowledgeRepo } from "../../../src/persistence/aiAgents/AiAgentKnowledgeRepo.js"
import { KnowledgeIndexRepo } from "../../../src/persistence/aiAgents/KnowledgeIndexRepo.js"
import * as PgliteClient from "../../../src/persistence/PgliteClient.js"
import { MigratorLive, SqlLive } from "../../../src/persistence/Sql.js"
import { KnowledgeSearch } from "../../../src/services/aiAgents/KnowledgeSearch.js"
import { freshDatabase } from "../../support/TestDatabase.js"
import { configFrom } from "../../support/TestServer.js"
import { agentRow } from "./AgentRows.js"

class Database extends Context.Tag("test/KnowledgeIndex/Database")<Database, { readonly url: string }>() {}

const repositories = Layer.mergeAll(KnowledgeSearch.Default, KnowledgeIndexRepo.Default, AiAgentKnowledgeRepo.Default)

const ServerEnv = Layer.unwrapEffect(
  Effect.map(Database, ({ url }) =>
    repositories.pipe(
      Layer.provideMerge(SqlLive),
      Layer.provide(Layer.setConfigProvider(configFrom({ DATABASE_URL: url })))
    ))
).pipe(Layer.provideMerge(Layer.scoped(Database, freshDatabase)))

const EmbeddedEnv = Layer.merge(repositories, MigratorLive).pipe(
  Layer.provideMerge(PgliteClient.layer({
    dataDir: Fs.mkdtempSync(Path.join(Os.tmpdir(), "parley-knowledge-index-")),
    transformQueryNames: String.camelToSnake,
    transformResultNames: String.snakeToCamel
  }))
)

const handbook = `# Refunds

We refund every order within 30 days of delivery. Refunds are refunded to the card that paid.

## Card payments

Refunds to a credit card arrive within 5 business days; the zebra code is ZX-41.

# Shipping

Parcels leave the warehouse every weekday at noon. Shipping is free above 50 euros.`

const notes = "The walrus discount is 12 percent. Walruses like discounts on weekdays."

/** A workspace with two agents. */
const workspace = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const workspaceId = uuidv7() as WorkspaceId
  const now = new Date()
  yield* sql`INSERT INTO workspaces (id, slug, name, created_at, updated_at)
    VALUES (${workspaceId}, ${`w-${workspaceId}`}, 'Index', ${now}, ${now})`
  const first = yield* agentRow(workspaceId)
  const second = yield* agentRow(workspaceId)
  return { workspaceId, agents: [first.id as AiAgentId, second.id as AiAgentId] as const }
}).pipe(Effect.orDie)

/** A document written and indexed as the indexer would (markdown chunks), in `language`. */
const indexed = (workspaceId: WorkspaceId, agentId: AiAgentId, content: string, language = "english") =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const documents = yield* AiAgentKnowledgeRepo
    const id = uuidv7() as AiAgentKnowledgeId
    yield* documents.insert(id, workspaceId, agentId, "markdown", {
      title: "Doc",
      content,
      url: null,
      enabled: true,
      reindex: true,
      at: new Date()
    })
    yield* sql`UPDATE ai_agent_knowledge SET language = ${language}::regconfig WHERE id = ${id}`.pipe(Effect.orDie)
    yield* reindexed(id, content)
    return id
  })

/** The document's text replaced and indexed again (a new generation claimed and stored). */
const reindexed = (id: AiAgentKnowledgeId, content: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const index = yield* KnowledgeIndexRepo
    yield* sql`UPDATE ai_agent_knowledge SET content = ${content}, status = 'pending', generation = generation + 1,
      claimed_until = NULL WHERE id = ${id}`.pipe(Effect.orDie)
    const claimed = yield* index.claim(id)
    expect(claimed).toBeDefined()
    const stored = yield* index.store(
      claimed!,
      null,
      content.length,
      chunkText(content, { structure: "markdown" }),
      new Date()
    )
    expect(stored).toBe(true)
    return claimed!
  })

/** The statistics as the triggers keep them, next to the same counted from the chunks. */
const statistics = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const kept = {
    stats: yield* sql`SELECT agent_id, language::text AS language, chunks, tokens::integer AS tokens
      FROM ai_agent_knowledge_stats WHERE chunks <> 0 ORDER BY 1, 2`,
    terms: yield* sql`SELECT agent_id, language::text AS language, lexeme, chunks
      FROM ai_agent_knowledge_terms ORDER BY 1, 2, 3`
  }
  const counted = {
    stats: yield* sql`SELECT agent_id, language::text AS language, count(*)::integer AS chunks,
        sum((SELECT sum(cardinality(positions)) FROM unnest(tsv)))::integer AS tokens
      FROM ai_agent_knowledge_chunks GROUP BY 1, 2 ORDER BY 1, 2`,
    terms: yield* sql`SELECT agent_id, language::text AS language, lexeme, count(*)::integer AS chunks
      FROM ai_agent_knowledge_chunks, unnest(tsvector_to_array(tsv)) AS lexeme GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`
  }
  const [lengths] = yield* sql<{ wrong: number }>`SELECT count(*)::integer AS wrong FROM ai_agent_knowledge_chunks
    WHERE token_count <> (SELECT coalesce(sum(cardinality(positions)), 0) FROM unnest(tsv))
      OR tsv <> setweight(to_tsvector(language, heading), 'B') || to_tsvector(language, text)`
  return { kept, counted, wrongLengths: lengths!.wrong }
}).pipe(Effect.orDie)

const expectExact = Effect.gen(function*() {
  const { counted, kept, wrongLengths } = yield* statistics
  expect(kept).toEqual(counted)
  expect(wrongLengths).toBe(0)
  return counted
})

const lifecycle = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const index = yield* KnowledgeIndexRepo
  const { agents: [first, second], workspaceId } = yield* workspace
  const book = yield* indexed(workspaceId, first, handbook)
  const walrus = yield* indexed(workspaceId, first, notes)
  yield* indexed(workspaceId, first, "Les morses aiment les remises.", "french")
  yield* indexed(workspaceId, second, notes)
  const counted = yield* expectExact
  expect(counted.stats.length).toBe(3)
  expect(counted.terms).toContainEqual({ agentId: first, language: "english", lexeme: "walrus", chunks: 1 })

  // Re-indexed with other text: the old chunks' lexemes leave, the new ones come.
  yield* reindexed(walrus, "The narwhal discount is 15 percent.")
  const after = yield* expectExact
  expect(after.terms.some((term) => term.agentId === first && term.lexeme === "walrus")).toBe(false)
  expect(after.terms).toContainEqual({ agentId: second, language: "english", lexeme: "walrus", chunks: 1 })

  // A failed indexing removes the document's chunks; a chunk rewritten is counted anew.
  const claimed = yield* reindexed(book, handbook)
  yield* sql`UPDATE ai_agent_knowledge SET generation = generation + 1 WHERE id = ${book}`
  yield* sql`UPDATE ai_agent_knowledge SET status = 'indexing' WHERE id = ${book}`
  yield* index.fail({ ...claimed, generation: claimed.generation + 1 }, "no", new Date())
  yield* expectExact
  yield* sql`UPDATE ai_agent_knowledge_chunks SET text = 'Narwhals and walruses.' WHERE document_id = ${walrus}`
  yield* expectExact

  // Deletions by cascade: a document, an agent, then the workspace.
  yield* sql`DELETE FROM ai_agent_knowledge WHERE id = ${walrus}`
  yield* expectExact
  yield* sql`DELETE FROM ai_agents WHERE id = ${second}`
  const left = yield* expectExact
  expect(left.stats.map((row) => row.agentId)).toEqual([first])
  yield* sql`DELETE FROM workspaces WHERE id = ${workspaceId}`
  const none = yield* statistics
  expect(none.kept.terms.filter((term) => term.agentId === first)).toEqual([])
})

/** Frequencies as `candidates` reads them (`ts_rank_cd` per lexeme), next to the chunk's own positions. */
const frequencies = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const index = yield* KnowledgeIndexRepo
  const { agents: [agent], workspaceId } = yield* workspace
  yield* indexed(workspaceId, agent, handbook)
  const lexemes = ["refund", "card", "zebra", "ship", "absent"]
  const found = yield* index.candidates({ agentId: agent, documentIds: null }, "english", lexemes, ["refund"], {
    cap: 100,
    headingWeight: 2,
    checked: true
  })
  const own = yield* sql<{ ordinal: number; lexeme: string; body: number; heading: number }>`SELECT c.ordinal, u.lexeme,
      cardinality(u.positions) - cardinality(array_positions(u.weights, 'B')) AS body,
      cardinality(array_positions(u.weights, 'B')) AS heading
    FROM ai_agent_knowledge_chunks c, unnest(c.tsv) u WHERE c.agent_id = ${agent}`.pipe(Effect.orDie)
  expect(found.length).toBe(2)
  for (const chunk of found) {
    const expected = lexemes.map((lexeme) => {
      const row = own.find((entry) => entry.ordinal === chunk.ordinal && entry.lexeme === lexeme)
      return row === undefined ? 0 : row.body + 2 * row.heading
    })
    expect(chunk.frequencies).toEqual(expected)
  }
  // The first section: "refund" three times in its text, once in its heading ("Refunds").
  expect(found.find((chunk) => chunk.ordinal === 0)!.frequencies[0]).toBe(3 + 2)
})

/** The best chunks of disabled, re-indexing or unlisted documents are left out; the others keep BM25's order. */
const searchable = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const search = yield* KnowledgeSearch
  const { agents: [agent], workspaceId } = yield* workspace
  const plain = yield* indexed(workspaceId, agent, "The zebra crossing is closed on Sundays.")
  const loud = yield* indexed(workspaceId, agent, "Zebra. Zebra zebra: zebras and more zebras.")
  const stale = yield* indexed(workspaceId, agent, "Zebra zebra zebra.")
  const found = (documentIds: ReadonlyArray<AiAgentKnowledgeId> | null) =>
    Effect.map(
      search.search({ agentId: agent, documentIds, query: "zebra", limit: 5 }),
      (hits) => hits.map((hit) => hit.documentId)
    )
  expect(new Set(yield* found(null))).toEqual(new Set([plain, loud, stale]))
  yield* sql`UPDATE ai_agent_knowledge SET enabled = false WHERE id = ${loud}`
  yield* sql`UPDATE ai_agent_knowledge SET status = 'pending' WHERE id = ${stale}`
  expect(yield* found(null)).toEqual([plain])
  expect(yield* found([loud, stale])).toEqual([])
  yield* sql`UPDATE ai_agent_knowledge SET enabled = true WHERE id = ${loud}`
  expect(yield* found([plain, loud])).toEqual([loud, plain])
  // Words that are operators in a tsquery, quotes and backslashes are only words.
  const hostile = yield* search.search({
    agentId: agent,
    documentIds: null,
    query: "zebra's \\ 'crossing' : & | ! (sundays) <-> closed:* \\'",
    limit: 5
  })
  expect(hostile[0]!.documentId).toBe(plain)
}).pipe(Effect.orDie)

describe("knowledge index statistics", () => {
  layer(ServerEnv, { excludeTestServices: true, timeout: 60_000 })("PostgreSQL server", (it) => {
    it.effect("stay exact through index, re-index, failure, rewrite and cascaded deletes", () => lifecycle)

    it.effect("stay exact while several indexers store and delete one agent's documents at once", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const { agents: [agent], workspaceId } = yield* workspace
        const texts = Array.from({ length: 12 }, (_, at) => `${at % 2 === 0 ? handbook : notes}\n\nItem ${at} of many.`)
        const ids = yield* Effect.forEach(texts, (text) => indexed(workspaceId, agent, text), { concurrency: 6 })
        yield* Effect.forEach(ids, (id, at) =>
          at % 3 === 0
            ? sql`DELETE FROM ai_agent_knowledge WHERE id = ${id}`.pipe(Effect.orDie)
            : Effect.asVoid(reindexed(id, `${notes} Version ${at}.`)), { concurrency: 6 })
        const counted = yield* expectExact
        expect(counted.stats).toEqual([
          expect.objectContaining({ agentId: agent, language: "english", chunks: 8 })
        ])
      }))

    it.effect("a search reads each lexeme's field-weighted frequency", () => frequencies)
    it.effect("a search leaves out documents that are not searchable, first in BM25 or not", () => searchable)
  })

  layer(EmbeddedEnv, { excludeTestServices: true, timeout: 60_000 })("embedded PGlite", (it) => {
    it.effect("stay exact through index, re-index, failure, rewrite and cascaded deletes", () => lifecycle)
    it.effect("a search reads each lexeme's field-weighted frequency", () => frequencies)
    it.effect("a search leaves out documents that are not searchable, first in BM25 or not", () => searchable)
  })
})
