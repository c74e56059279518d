/**
 * Indexing knowledge documents in the background: a write schedules its
 * document (a fiber forked in this node's scope, after the write commits),
 * and at start and every half minute the node claims documents still
 * waiting: those whose node stopped before or while indexing them (a claim's
 * lease ran out) and those scheduled on a node that went away. A claim is
 * safe with several nodes (`KnowledgeIndexRepo.claim`). Indexing reads the
 * text (a `url` is fetched through the outbound rules of tool calls: the
 * address rule, a time-out, a size limit; a `pdf`'s text is extracted by
 * `PdfText`, with its own bounds), chunks it and stores the chunks
 * for the generation claimed; any failure is the document's `failed` status
 * with the reason. With an embeddings provider, a document's chunks are then
 * embedded (`KnowledgeEmbeddings`), and the sweep embeds what is still
 * without a vector; neither ever fails the document.
 */
import { Clock, Data, Duration, Effect, Schedule } from "effect"
import type { AiAgentKnowledgeId } from "../../domain/aiAgents/Ids.js"
import { MAX_KNOWLEDGE_CHARACTERS } from "../../domain/aiAgents/Knowledge.js"
import { chunkText } from "../../domain/aiAgents/knowledge/Chunking.js"
import { type DocumentText, fetchedText, inlineText } from "../../domain/aiAgents/knowledge/DocumentText.js"
import { excerpt } from "../../domain/Excerpt.js"
import { type ClaimedDocument, KnowledgeIndexRepo } from "../../persistence/aiAgents/KnowledgeIndexRepo.js"
import { OutboundHttp } from "../../providers/outbound/OutboundHttp.js"
import { KnowledgeEmbeddings } from "./KnowledgeEmbeddings.js"
import { PdfText } from "./PdfText.js"

/** How long a page fetch may take, and how large its body may be. */
const FETCH_TIMEOUT_MS = 15_000
const FETCH_MAX_BYTES = 10 * 1024 * 1024
/** How many documents a node indexes at once. */
const CONCURRENCY = 2
const SWEEP_EVERY = Duration.seconds(30)

/** Why a document could not be indexed: the reason its `failed` status shows. */
class IndexingFailed extends Data.TaggedError("IndexingFailed")<{ readonly reason: string }> {}

const decoder = new TextDecoder("utf-8")

export class KnowledgeIndexer extends Effect.Service<KnowledgeIndexer>()("parley/services/aiAgents/KnowledgeIndexer", {
  scoped: Effect.gen(function*() {
    const index = yield* KnowledgeIndexRepo
    const outbound = yield* OutboundHttp
    const pdf = yield* PdfText
    const embeddings = yield* KnowledgeEmbeddings
    const scope = yield* Effect.scope
    const permits = yield* Effect.makeSemaphore(CONCURRENCY)
    /** Chunks stored since the planner's statistics were last refreshed (by the sweep, at most 30 s later). */
    let indexedSinceAnalyze = 0

    const fetchPage = (url: string) =>
      outbound.send({
        method: "GET",
        url: new URL(url),
        headers: { accept: "text/html, text/markdown, text/plain;q=0.9, */*;q=0.1" },
        body: null,
        timeoutMs: FETCH_TIMEOUT_MS,
        maxResponseBytes: FETCH_MAX_BYTES
      }).pipe(
        Effect.mapError((failure) =>
          new IndexingFailed({ reason: `The page could not be fetched: ${failure.message}` })
        ),
        Effect.flatMap((answer) => {
          if (answer.status < 200 || answer.status >= 300) {
            return Effect.fail(new IndexingFailed({ reason: `The page answered HTTP ${answer.status}` }))
          }
          const text = fetchedText(answer.headers["content-type"], decoder.decode(answer.body))
          return "refused" in text
            ? Effect.fail(new IndexingFailed({ reason: `The page cannot be indexed: ${text.refused}` }))
            : Effect.succeed(text)
        })
      )

    const textOf = (document: ClaimedDocument): Effect.Effect<DocumentText, IndexingFailed> =>
      document.kind === "url"
        ? fetchPage(document.url ?? "")
        : document.kind === "pdf"
        ? pdf.extract(document.file ?? new Uint8Array()).pipe(
          Effect.mapError((failure) => new IndexingFailed({ reason: failure.reason }))
        )
        : Effect.succeed(inlineText(document.kind, document.content ?? ""))

    /** The document's chunks embedded, if its workspace has a provider; a failure is logged, never the document's. */
    const embedded = (id: AiAgentKnowledgeId) =>
      embeddings.embedDocument(id).pipe(
        Effect.asVoid,
        Effect.catchAllCause((cause) => Effect.logWarning("Knowledge embedding failed", cause))
      )

    const indexOne = (document: ClaimedDocument) =>
      Effect.gen(function*() {
        const { structure, text } = yield* textOf(document)
        if (text.trim() === "") return yield* new IndexingFailed({ reason: "The document has no text to index" })
        if (text.length > MAX_KNOWLEDGE_CHARACTERS) {
          return yield* new IndexingFailed({ reason: `The text is longer than ${MAX_KNOWLEDGE_CHARACTERS} characters` })
        }
        const chunks = chunkText(text, { structure })
        const indexedText = document.kind === "url" || document.kind === "html" || document.kind === "pdf" ? text : null
        const at = new Date(yield* Clock.currentTimeMillis)
        const stored = yield* index.store(document, indexedText, text.length, chunks, at)
        indexedSinceAnalyze += chunks.length
        if (stored) yield* embedded(document.id)
      }).pipe(
        Effect.catchAll((failure) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) => index.fail(document, failure.reason, new Date(now)))
        ),
        Effect.catchAllDefect((defect) =>
          Effect.flatMap(
            Clock.currentTimeMillis,
            (now) => index.fail(document, excerpt(`Indexing failed: ${String(defect)}`, 2000), new Date(now))
          )
        ),
        permits.withPermits(1),
        Effect.withSpan("KnowledgeIndexer.index", { attributes: { documentId: document.id } })
      )

    /** Claim and index every waiting document this node can take, a few at a time; then embed what waits. */
    const sweep = Effect.gen(function*() {
      for (;;) {
        const claimed = yield* index.claimWaiting(CONCURRENCY * 4)
        if (claimed.length === 0) break
        yield* Effect.forEach(claimed, indexOne, { concurrency: CONCURRENCY, discard: true })
      }
      if (indexedSinceAnalyze > 0) {
        indexedSinceAnalyze = 0
        yield* index.analyze
      }
      yield* embeddings.sweep.pipe(
        Effect.catchAllCause((cause) => Effect.logWarning("Knowledge embedding sweep failed", cause))
      )
    }).pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("Knowledge indexing sweep failed", cause)),
      Effect.withSpan("KnowledgeIndexer.sweep")
    )

    yield* Effect.forkScoped(Effect.repeat(sweep, Schedule.spaced(SWEEP_EVERY)))

    /** Index this document in the background, once its write has committed. */
    const schedule = (id: AiAgentKnowledgeId) =>
      index.claim(id).pipe(
        Effect.flatMap((claimed) => claimed === undefined ? Effect.void : indexOne(claimed)),
        Effect.catchAllCause((cause) => Effect.logWarning("Knowledge indexing failed", cause)),
        Effect.forkIn(scope),
        Effect.asVoid
      )

    return { schedule, sweep } as const
  }),
  dependencies: [KnowledgeIndexRepo.Default, OutboundHttp.Default, KnowledgeEmbeddings.Default, PdfText.Default]
}) {}
