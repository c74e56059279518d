/**
 * The vector side of hybrid knowledge retrieval, timed (issue 14): one
 * agent's knowledge of `KNOWLEDGE_VECTOR_CHUNKS` chunks (10,000 unless told;
 * synthetic text of 100 words from a 5,000-word vocabulary) each with a
 * random unit vector of 256 dimensions, stored by the service's repositories;
 * then, over 50 queries (after 3 to warm up), p50/p99 of (1) the vector part
 * alone, the scope's 50 chunks nearest the query by exact cosine: reading the
 * scope's vectors of the model and ranking them in Node
 * (`KnowledgeVectorRepo.vectors` + `VectorRanking.nearest`), and where the
 * database has pgvector (PGlite; migration 0025) its `<=>` over them, which
 * `KnowledgeVectorRepo.nearest` then uses (checked to find the same chunks);
 * and (2) `KnowledgeSearch.search` lexical alone and hybrid (the same query
 * with a vector: both rankings fused by RRF). On the PostgreSQL server and
 * on the embedded PGlite.
 *
 *   npx tsx bench/knowledge/vectors.ts
 */
import { SqlClient } from "@effect/sql"
import { ConfigProvider, Effect, Layer } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { v7 as uuidv7 } from "uuid"
import type { AiAgentId, AiAgentKnowledgeId } from "../../src/domain/aiAgents/Ids.js"
import type { Chunk } from "../../src/domain/aiAgents/knowledge/Chunking.js"
import {
  fromBytes,
  nearest,
  normalized,
  toBytes,
  VECTOR_CANDIDATES
} from "../../src/domain/aiAgents/knowledge/VectorRanking.js"
import { KnowledgeIndexRepo } from "../../src/persistence/aiAgents/KnowledgeIndexRepo.js"
import { KnowledgeVectorRepo } from "../../src/persistence/aiAgents/KnowledgeVectorRepo.js"
import { hasPgvector } from "../../src/persistence/aiAgents/PgVector.js"
import { MigratorLive, SqlLive } from "../../src/persistence/Sql.js"
import { KnowledgeSearch } from "../../src/services/aiAgents/KnowledgeSearch.js"
import { emptyDatabase } from "../../test/support/TestDatabase.js"
import { runBench } from "../support/Run.js"
import { percentile } from "../turns/Load.js"

const CHUNKS = Number(process.env["KNOWLEDGE_VECTOR_CHUNKS"] ?? 10_000)
const DIMENSIONS = 256
const CHUNKS_PER_DOCUMENT = 10
const QUERIES = 50
const MODEL = "bench-256"

/** A deterministic pseudo-random source (mulberry32), so every run stores the same knowledge. */
const random = (() => {
  let state = 14
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
})()
const vocabulary = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}${"aeiou"[i % 5]}x`)
const words = (count: number) => Array.from({ length: count }, () => vocabulary[Math.floor(random() * 5000)]).join(" ")
const unitVector = () => normalized(Array.from({ length: DIMENSIONS }, () => random() - 0.5))

type Backend = "server" | "embedded"

const services = (backend: Backend, location: string) =>
  Layer.mergeAll(KnowledgeSearch.Default, KnowledgeIndexRepo.Default, KnowledgeVectorRepo.Default).pipe(
    Layer.provideMerge(MigratorLive.pipe(Layer.provideMerge(SqlLive))),
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromJson(
      backend === "server" ? { DATABASE_URL: location } : { PARLEY_DATA_DIR: location }
    )))
  )

/** An agent whose knowledge holds `CHUNKS` chunks, each with a vector of `MODEL`. */
const load = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const index = yield* KnowledgeIndexRepo
  const vectors = yield* KnowledgeVectorRepo
  const workspaceId = uuidv7()
  const agentId = uuidv7() as AiAgentId
  const now = new Date()
  yield* sql`INSERT INTO workspaces (id, slug, name, created_at, updated_at)
    VALUES (${workspaceId}, ${`bench-${workspaceId}`}, 'Bench', ${now}, ${now})`
  yield* sql`INSERT INTO ai_agents (id, workspace_id, slug, name, description, instructions, model_settings,
      conversation, embed, created_at, updated_at)
    VALUES (${agentId}, ${workspaceId}, ${`agent-${agentId}`}, 'Bench', '', '', '{}'::jsonb, '{}'::jsonb,
      '{}'::jsonb, ${now}, ${now})`
  const started = performance.now()
  for (let from = 0; from < CHUNKS; from += CHUNKS_PER_DOCUMENT) {
    const id = uuidv7() as AiAgentKnowledgeId
    const texts = Array.from({ length: CHUNKS_PER_DOCUMENT }, () => words(100))
    const content = texts.join("\n")
    yield* sql`INSERT INTO ai_agent_knowledge (id, workspace_id, agent_id, kind, title, content, status,
        created_at, updated_at)
      VALUES (${id}, ${workspaceId}, ${agentId}, 'text', ${`Doc ${from}`}, ${content}, 'pending', ${now}, ${now})`
    const claimed = yield* index.claim(id)
    let offset = 0
    const chunks: Array<Chunk> = texts.map((text, ordinal) => {
      const chunk = { ordinal, heading: "", start: offset, end: offset + text.length, text }
      offset += text.length + 1
      return chunk
    })
    yield* index.store(claimed!, null, content.length, chunks, now)
    const document = yield* vectors.document(id)
    yield* vectors.store(
      document!,
      MODEL,
      chunks.map((chunk) => ({ ordinal: chunk.ordinal, embedding: toBytes(unitVector()) }))
    )
  }
  yield* index.analyze
  return { agentId, seconds: (performance.now() - started) / 1000 }
}).pipe(Effect.orDie)

const timed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const times: Array<number> = []
    for (let i = 0; i < QUERIES + 3; i++) {
      const started = performance.now()
      yield* effect
      if (i >= 3) times.push(performance.now() - started)
    }
    times.sort((a, b) => a - b)
    return `p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms`
  })

const measure = (backend: Backend) =>
  Effect.gen(function*() {
    const { agentId, seconds } = yield* load
    const search = yield* KnowledgeSearch
    const vectors = yield* KnowledgeVectorRepo
    const scope = { agentId, documentIds: null }
    console.log(
      `\n== ${
        backend === "server" ? "PostgreSQL server" : "embedded PGlite"
      }: ${CHUNKS} chunks × ${DIMENSIONS} dims (stored in ${seconds.toFixed(0)} s) ==`
    )
    const inNode = (query: Float32Array) =>
      Effect.map(vectors.vectors(scope, MODEL), (stored) =>
        nearest(
          query,
          stored.map((row) => ({ key: `${row.documentId}:${row.ordinal}`, vector: fromBytes(row.embedding) })),
          VECTOR_CANDIDATES
        ).map(({ item }) => item.key))
    const vectorPart = Effect.gen(function*() {
      const near = yield* inNode(unitVector())
      if (near.length !== VECTOR_CANDIDATES) return yield* Effect.die(`only ${near.length} vectors ranked`)
    })
    console.log(`  vector part, read + exact cosine in Node (top ${VECTOR_CANDIDATES}): ${yield* timed(vectorPart)}`)
    if (yield* hasPgvector(yield* SqlClient.SqlClient)) {
      const query = unitVector()
      const found = yield* vectors.nearest(scope, { model: MODEL, embedding: query }, VECTOR_CANDIDATES)
      const expected = yield* inNode(query)
      if (found.map((key) => `${key.documentId}:${key.ordinal}`).join() !== expected.join()) {
        return yield* Effect.die("pgvector ranked other chunks than the exact cosine in Node")
      }
      const pgvectorPart = Effect.suspend(() =>
        vectors.nearest(scope, { model: MODEL, embedding: unitVector() }, VECTOR_CANDIDATES)
      )
      console.log(`  vector part, pgvector <=> (exact scan, top ${VECTOR_CANDIDATES}):  ${yield* timed(pgvectorPart)}`)
    }
    const query = () => words(3)
    console.log(
      `  search, lexical alone:                 ${yield* timed(
        Effect.suspend(() => search.search({ agentId, documentIds: null, query: query(), limit: 5 }))
      )}`
    )
    console.log(
      `  search, hybrid (lexical + vector, RRF): ${yield* timed(Effect.suspend(() =>
        search.search({
          agentId,
          documentIds: null,
          query: query(),
          limit: 5,
          vector: { model: MODEL, embedding: unitVector() }
        })
      ))}`
    )
  })

runBench(Effect.gen(function*() {
  console.log(`Knowledge vectors: ${Os.cpus().length} CPUs (${Os.cpus()[0]?.model}), Node ${process.version}`)
  const server = yield* emptyDatabase
  yield* Effect.scoped(Effect.provide(measure("server"), services("server", server.url))).pipe(Effect.orDie)
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "parley-knowledge-vectors-"))
  yield* Effect.scoped(Effect.provide(measure("embedded"), services("embedded", dir))).pipe(
    Effect.orDie,
    Effect.ensuring(Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true })))
  )
}))
