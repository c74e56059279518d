/**
 * Knowledge retrieval, measured in one run (issue 14):
 *
 * 1. Quality: recall@1, recall@5 and MRR of Parley's lexical hybrid search
 *    (`KnowledgeSearch.search`, the code `knowledge_search` runs: BM25 from
 *    the index's term statistics, fused with trigram similarities) next to a
 *    plain BM25 over the same documents (`Bm25.ts`, k1 = 1.2, b = 0.75), on
 *    (a) BANKING77 as an FAQ and (b) PubMedQA as a smoke test (`Corpora.ts`).
 *    Documents are stored and indexed by the service's own repository and
 *    indexer (chunks of ~800 characters); a document's rank is that of its
 *    best chunk.
 * 2. Latency: p50/p99 of one search (sequential, 200 PubMedQA questions)
 *    with 10,000 and 100,000 chunks in one agent's knowledge (PubMedQA's
 *    abstracts repeated), on the embedded PGlite and on the PostgreSQL
 *    server, and the recall of those questions at that size (any copy of
 *    the right abstract counts). No embeddings provider: no vectors.
 * 3. Tuning (`KNOWLEDGE_BENCH_PARTS=tune`, not part of the default run): the
 *    fusion's weights and BM25's k1 swept on BANKING77's held-out split
 *    (training utterances that are not in the documents), never on the test
 *    queries part 1 reports; `LEXICAL_DEFAULTS` holds what it chose.
 *
 *   npm run bench:knowledge                     (KNOWLEDGE_BENCH_SIZES=10000 to skip the largest)
 *   KNOWLEDGE_BENCH_BUDGETS=1000,4000,none      (the latency part again with other probe budgets)
 */
import { SqlClient } from "@effect/sql"
import { ConfigProvider, Effect, Layer } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { v7 as uuidv7 } from "uuid"
import type { AiAgentId, AiAgentKnowledgeId } from "../../src/domain/aiAgents/Ids.js"
import type { Chunk } from "../../src/domain/aiAgents/knowledge/Chunking.js"
import { LEXICAL_DEFAULTS, type LexicalRanking } from "../../src/domain/aiAgents/knowledge/LexicalRanking.js"
import type { WorkspaceId } from "../../src/domain/identity/Ids.js"
import { AiAgentKnowledgeRepo } from "../../src/persistence/aiAgents/AiAgentKnowledgeRepo.js"
import { KnowledgeIndexRepo } from "../../src/persistence/aiAgents/KnowledgeIndexRepo.js"
import { MigratorLive, SqlLive } from "../../src/persistence/Sql.js"
import { LlmClients } from "../../src/providers/llm/LlmClients.js"
import { KnowledgeIndexer } from "../../src/services/aiAgents/KnowledgeIndexer.js"
import { KnowledgeSearch, RERANKED } from "../../src/services/aiAgents/KnowledgeSearch.js"
import { LlmInForce } from "../../src/services/settings/LlmInForce.js"
import { SecretValues } from "../../src/services/workspace/SecretValues.js"
import { emptyDatabase } from "../../test/support/TestDatabase.js"
import { runBench } from "../support/Run.js"
import { percentile } from "../turns/Load.js"
import { bm25 } from "./Bm25.js"
import { banking77, type Corpus, pubmedqa } from "./Corpora.js"

const SIZES = (process.env["KNOWLEDGE_BENCH_SIZES"] ?? "10000,100000").split(",").filter((size) => size !== "")
  .map(Number)
/** The embedded sizes (PGlite indexes slowly: `KNOWLEDGE_BENCH_EMBEDDED_SIZES` to change them). */
const EMBEDDED_SIZES = (process.env["KNOWLEDGE_BENCH_EMBEDDED_SIZES"] ?? SIZES.join(",")).split(",")
  .filter((size) => size !== "").map(Number)
const UNBOUNDED = 1_000_000_000
/** Other probe budgets than `LEXICAL_DEFAULTS.probeBudget` to measure the latency part with ("none": unbounded). */
const BUDGETS = (process.env["KNOWLEDGE_BENCH_BUDGETS"] ?? "").split(",").filter((budget) => budget !== "")
  .map((budget) => budget === "none" ? UNBOUNDED : Number(budget))
/** `quality`, `latency` or both (the default); or `tune`. */
const PARTS = process.env["KNOWLEDGE_BENCH_PARTS"] ?? "quality,latency"
const LATENCY_QUERIES = 200

type Backend = "embedded" | "server"

/** The services over a migrated database of this backend. */
const services = (backend: Backend, location: string) =>
  Layer.mergeAll(
    KnowledgeSearch.Default,
    KnowledgeIndexer.Default,
    AiAgentKnowledgeRepo.Default,
    KnowledgeIndexRepo.Default
  ).pipe(
    // No embeddings provider is configured: the providers' layers are there, and no key is ever read.
    Layer.provide(Layer.mergeAll(LlmInForce.Default, LlmClients.Default)),
    Layer.provide(Layer.succeed(
      SecretValues,
      SecretValues.of({ reveal: () => Effect.die("no secret is read"), missing: () => Effect.succeed([]) })
    )),
    Layer.provideMerge(MigratorLive.pipe(Layer.provideMerge(SqlLive))),
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromJson(
      backend === "server" ? { DATABASE_URL: location } : { PARLEY_DATA_DIR: location }
    )))
  )

/** Each paragraph of `text` as a chunk. */
const paragraphsOf = (text: string): Array<Chunk> => {
  const chunks: Array<Chunk> = []
  for (const match of text.matchAll(/[^\n]+/g)) {
    chunks.push({
      ordinal: chunks.length,
      heading: "",
      start: match.index,
      end: match.index + match[0].length,
      text: match[0]
    })
  }
  return chunks
}

/** A workspace and an agent, straight in the database. */
const newAgent = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const workspaceId = uuidv7() as WorkspaceId
  const agentId = uuidv7() as AiAgentId
  const now = new Date()
  yield* sql`INSERT INTO workspaces (id, slug, name, created_at, updated_at)
    VALUES (${workspaceId}, ${`bench-${workspaceId}`}, 'Bench', ${now}, ${now})`
  yield* sql`INSERT INTO ai_agents (id, workspace_id, slug, name, description, instructions, model_settings,
      conversation, embed, created_at, updated_at)
    VALUES (${agentId}, ${workspaceId}, ${`agent-${agentId}`}, 'Bench', '', '', '{}'::jsonb, '{}'::jsonb,
      '{}'::jsonb, ${now}, ${now})`
  return { workspaceId, agentId }
}).pipe(Effect.orDie)

/**
 * The corpus's documents stored (`repeat` times) and indexed through the service's indexer; with
 * `paragraphChunks`, each paragraph (a BANKING77 utterance) is stored as a chunk of its own instead.
 */
const load = (corpus: Corpus, repeat = 1, paragraphChunks = false) =>
  Effect.gen(function*() {
    const repo = yield* AiAgentKnowledgeRepo
    const indexer = yield* KnowledgeIndexer
    const sql = yield* SqlClient.SqlClient
    const { agentId, workspaceId } = yield* newAgent
    const keys = new Map<string, string>()
    const started = performance.now()
    for (let round = 0; round < repeat; round++) {
      yield* Effect.forEach(corpus.documents, (document) => {
        const id = uuidv7() as AiAgentKnowledgeId
        keys.set(id, document.key)
        return repo.insert(id, workspaceId, agentId, "text", {
          title: round === 0 ? document.title : `${document.title} (${round})`,
          content: document.text,
          url: null,
          enabled: true,
          reindex: true,
          at: new Date()
        })
      }, { concurrency: 8, discard: true })
      if (!paragraphChunks) yield* indexer.sweep
      else {
        const index = yield* KnowledgeIndexRepo
        for (;;) {
          const claimed = yield* index.claimWaiting(100)
          if (claimed.length === 0) break
          yield* Effect.forEach(claimed, (document) => {
            const text = document.content ?? ""
            const chunks = paragraphsOf(text)
            return index.store(document, null, text.length, chunks, new Date())
          }, { discard: true })
        }
      }
    }
    const [row] = yield* sql<{ chunks: number; waiting: number }>`SELECT count(*)::int AS chunks,
      (SELECT count(*)::int FROM ai_agent_knowledge WHERE agent_id = ${agentId} AND status <> 'ready') AS waiting
      FROM ai_agent_knowledge_chunks WHERE agent_id = ${agentId}`.pipe(Effect.orDie)
    return { agentId, keys, chunks: row!.chunks, waiting: row!.waiting, seconds: (performance.now() - started) / 1000 }
  })

interface Quality {
  readonly recall1: number
  readonly recall5: number
  readonly mrr: number
}

const score = (ranks: ReadonlyArray<number>): Quality => ({
  recall1: ranks.filter((rank) => rank === 1).length / ranks.length,
  recall5: ranks.filter((rank) => rank <= 5).length / ranks.length,
  mrr: ranks.reduce((sum, rank) => sum + (Number.isFinite(rank) ? 1 / rank : 0), 0) / ranks.length
})

const row = (label: string, quality: Quality) =>
  `  ${label.padEnd(34)} ${quality.recall1.toFixed(3).padStart(9)} ${quality.recall5.toFixed(3).padStart(9)} ${
    quality.mrr.toFixed(3).padStart(7)
  }`

/** Parley's ranking of documents for a query: each by its best chunk. */
const parleyRanks = (
  corpus: Corpus,
  agentId: AiAgentId,
  keys: ReadonlyMap<string, string>,
  ranking: Partial<LexicalRanking> = {},
  candidates?: number
) =>
  Effect.gen(function*() {
    const search = yield* KnowledgeSearch
    return yield* Effect.forEach(corpus.queries, (query) =>
      Effect.map(
        // 50 results, for MRR; as many re-ranked as `limit: 5` would, so the top 5 are its answer.
        search.search({
          agentId,
          documentIds: null,
          query: query.text,
          limit: 50,
          widenBelow: 0,
          ranking,
          candidates: candidates ?? RERANKED
        }),
        (hits) => {
          const ranking = [...new Set(hits.map((hit) => keys.get(hit.documentId)!))]
          const at = ranking.indexOf(query.answer)
          return at === -1 ? Infinity : at + 1
        }
      ))
  })

const quality = (corpus: Corpus, variant = false) =>
  Effect.gen(function*() {
    const loaded = yield* load(corpus)
    const baseline = bm25(corpus.documents)
    const bm25Ranks = corpus.queries.map((query) => baseline.rank(query.text).indexOf(query.answer) + 1)
    const started = performance.now()
    const ranks = yield* parleyRanks(corpus, loaded.agentId, loaded.keys)
    const perQuery = (performance.now() - started) / corpus.queries.length
    console.log(
      `\n${corpus.name}: ${corpus.documents.length} documents (${loaded.chunks} chunks, indexed in ${
        loaded.seconds.toFixed(1)
      } s), ${corpus.queries.length} queries`
    )
    console.log(`  ${"".padEnd(34)} ${"recall@1".padStart(9)} ${"recall@5".padStart(9)} ${"MRR".padStart(7)}`)
    const parley = score(ranks)
    const base = score(bm25Ranks)
    console.log(row("BM25 baseline (same run)", base))
    console.log(row("Parley hybrid (BM25 + trigram)", parley))
    if (variant) {
      const split = yield* load(corpus, 1, true)
      const splitRanks = yield* parleyRanks(corpus, split.agentId, split.keys)
      console.log(row(`  same, a chunk per utterance (${split.chunks})`, score(splitRanks)))
    }
    console.log(
      `  difference: recall@5 ${((parley.recall5 - base.recall5) * 100).toFixed(1)} points, recall@1 ${
        ((parley.recall1 - base.recall1) * 100).toFixed(1)
      } points; ${perQuery.toFixed(1)} ms per query`
    )
    return loaded.chunks
  })

const latency = (corpus: Corpus, size: number, perCopy: number) =>
  Effect.gen(function*() {
    const loaded = yield* load(corpus, Math.max(1, Math.round(size / perCopy)))
    const search = yield* KnowledgeSearch
    const queries = corpus.queries.slice(0, LATENCY_QUERIES)
    const measure = (label: string, ranking: Partial<LexicalRanking>) =>
      Effect.gen(function*() {
        const times: Array<number> = []
        const ranks: Array<number> = []
        const ask = (text: string) =>
          search.search({ agentId: loaded.agentId, documentIds: null, query: text, limit: 5, ranking })
        for (const query of queries.slice(0, 10)) yield* ask(query.text)
        for (const query of queries) {
          const started = performance.now()
          const hits = yield* ask(query.text)
          times.push(performance.now() - started)
          const at = [...new Set(hits.map((hit) => loaded.keys.get(hit.documentId)))].indexOf(query.answer)
          ranks.push(at === -1 ? Infinity : at + 1)
        }
        times.sort((a, b) => a - b)
        const found = score(ranks)
        console.log(
          `  ${label}: p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${
            percentile(times, 99).toFixed(1)
          } ms; recall@1 ${found.recall1.toFixed(3)}, recall@5 ${found.recall5.toFixed(3)} (any copy)`
        )
      })
    yield* measure(
      `${String(loaded.chunks).padStart(7)} chunks (indexed in ${loaded.seconds.toFixed(0)} s${
        loaded.waiting > 0 ? `, ${loaded.waiting} not ready` : ""
      })`,
      {}
    )
    for (const budget of BUDGETS) {
      yield* measure(
        `          probe budget ${budget === UNBOUNDED ? "none" : budget}`,
        { probeBudget: budget, candidateCap: budget === UNBOUNDED ? UNBOUNDED : 2 * budget }
      )
    }
  })

/**
 * Part 3: the fusion's weights swept on BANKING77's held-out split (k1 = 1.2, 50 re-ranked), then
 * the best pair with k1 = 2 and with 20 or 30 re-ranked; each setting's figures, and the best by
 * recall@5 (MRR breaking ties).
 */
const tune = Effect.gen(function*() {
  const all = banking77("held-out")
  // Every third held-out utterance (about 3,000 queries) keeps the sweep to minutes.
  const heldOut = { ...all, queries: all.queries.filter((_, at) => at % 3 === 0) }
  const loaded = yield* load(heldOut)
  console.log(`\n${heldOut.name}: ${heldOut.queries.length} queries; defaults ${JSON.stringify(LEXICAL_DEFAULTS)}`)
  console.log(`  ${"".padEnd(34)} ${"recall@1".padStart(9)} ${"recall@5".padStart(9)} ${"MRR".padStart(7)}`)
  type Setting = { readonly ranking: Partial<LexicalRanking>; readonly candidates: number }
  const tried: Array<{ readonly setting: Setting; readonly quality: Quality }> = []
  const best = () =>
    tried.reduce((a, b) =>
      b.quality.recall5 > a.quality.recall5 ||
        (b.quality.recall5 === a.quality.recall5 && b.quality.mrr > a.quality.mrr)
        ? b
        : a
    )
  const labelOf = ({ candidates, ranking }: Setting) =>
    `k1 ${ranking.k1}, sent ${ranking.sentenceWeight}, words ${ranking.wordWeight}, ${candidates}`
  const attempt = (setting: Setting) =>
    Effect.gen(function*() {
      const quality = score(
        yield* parleyRanks(heldOut, loaded.agentId, loaded.keys, setting.ranking, setting.candidates)
      )
      tried.push({ setting, quality })
      console.log(row(labelOf(setting), quality))
    })
  for (const sentenceWeight of [0, 1, 1.5, 2, 3]) {
    for (const wordWeight of [0, 0.5, 1]) {
      yield* attempt({ ranking: { k1: 1.2, sentenceWeight, wordWeight }, candidates: 50 })
    }
  }
  yield* attempt({ ranking: { ...best().setting.ranking, k1: 2 }, candidates: 50 })
  for (const candidates of [20, 30]) yield* attempt({ ranking: best().setting.ranking, candidates })
  console.log(row(`best: ${labelOf(best().setting)}`, best().quality))
})

const onBackend = <A, E>(
  backend: Backend,
  location: string,
  main: Effect.Effect<
    A,
    E,
    KnowledgeSearch | KnowledgeIndexer | AiAgentKnowledgeRepo | KnowledgeIndexRepo | SqlClient.SqlClient
  >
) => Effect.scoped(Effect.provide(main, services(backend, location))).pipe(Effect.orDie)

runBench(Effect.gen(function*() {
  console.log(`Knowledge retrieval: ${Os.cpus().length} CPUs (${Os.cpus()[0]?.model}), Node ${process.version}`)
  const faq = banking77()
  const pubmed = yield* Effect.promise(pubmedqa)
  const server = yield* emptyDatabase
  console.log(`PostgreSQL server: ${server.url.replace(/\/\/[^@]*@/, "//")}; embedded: PGlite in a temporary directory`)
  if (PARTS === "tune") {
    console.log("\n== Tuning on the held-out split (PostgreSQL server) ==")
    return yield* onBackend("server", server.url, tune)
  }

  if (PARTS.includes("quality")) console.log("\n== Retrieval quality (PostgreSQL server) ==")
  const pubmedChunks = PARTS.includes("quality")
    ? yield* onBackend("server", server.url, Effect.zipRight(quality(faq, true), quality(pubmed)))
    : yield* onBackend("server", server.url, Effect.map(load(pubmed), (loaded) => loaded.chunks))
  if (!PARTS.includes("latency")) return

  const perCopy = pubmedChunks
  for (const backend of ["server", "embedded"] as const) {
    console.log(`\n== Search latency, ${backend === "server" ? "PostgreSQL server" : "embedded PGlite"} ==`)
    for (const size of backend === "server" ? SIZES : EMBEDDED_SIZES) {
      if (backend === "server") {
        const database = yield* emptyDatabase
        yield* onBackend(backend, database.url, latency(pubmed, size, perCopy))
      } else {
        const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "parley-knowledge-bench-"))
        yield* onBackend(backend, dir, latency(pubmed, size, perCopy)).pipe(
          Effect.ensuring(Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true })))
        )
      }
    }
  }
}))
