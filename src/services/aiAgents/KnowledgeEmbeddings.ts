/**
 * Embeddings of an agent's knowledge, when its workspace configures an
 * embeddings provider (`agent-llm` settings, `embeddings`): a document's
 * chunks are embedded once it is indexed (`embedDocument`, `BATCH` chunks a
 * request through `LlmClients.embeddings`, each bounded by the connection's
 * time-out), and the indexer's sweep embeds whatever is still without a
 * vector of the connection's model (`sweep`): chunks whose provider failed,
 * and every chunk again after the model changed. A failure never fails the
 * document: it stays searchable lexically. `queryVector` embeds a search's
 * query; without a provider, or when the provider fails (logged and counted),
 * there is none and the search is lexical alone.
 */
import { Duration, Effect, Metric, Option, Redacted } from "effect"
import type { AiAgentKnowledgeId } from "../../domain/aiAgents/Ids.js"
import { normalized, type QueryVector, toBytes } from "../../domain/aiAgents/knowledge/VectorRanking.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { LlmConnection } from "../../domain/settings/LlmConnection.js"
import { knowledgeEmbeddingFailures } from "../../observability/Metrics.js"
import { type EmbeddableDocument, KnowledgeVectorRepo } from "../../persistence/aiAgents/KnowledgeVectorRepo.js"
import { fromAiError } from "../../providers/llm/LlmCallFailure.js"
import { connectionLabel, LlmClients } from "../../providers/llm/LlmClients.js"
import { entryOf, LlmInForce } from "../settings/LlmInForce.js"

/** Chunks embedded per request. */
export const BATCH = 64
/** Documents a sweep looks at per round. */
const SWEEP_ROUND = 20

const indexFailures = Metric.tagged(knowledgeEmbeddingFailures, "stage", "index")
const queryFailures = Metric.tagged(knowledgeEmbeddingFailures, "stage", "query")

/** Why texts could not be embedded (the provider's failure, the key missing, an answer of the wrong shape). */
interface EmbeddingFailed {
  readonly message: string
}

/** The text of a chunk that is embedded: its heading path, then its text. */
const embeddedText = (chunk: { readonly heading: string; readonly text: string }) =>
  chunk.heading === "" ? chunk.text : `${chunk.heading}\n${chunk.text}`

export class KnowledgeEmbeddings extends Effect.Service<KnowledgeEmbeddings>()(
  "parley/services/aiAgents/KnowledgeEmbeddings",
  {
    effect: Effect.gen(function*() {
      const vectors = yield* KnowledgeVectorRepo
      const inForce = yield* LlmInForce
      const clients = yield* LlmClients

      /** The texts' vectors, in order, through `connection` (its key read from the vault now). */
      const embed = (
        workspaceId: WorkspaceId,
        connection: LlmConnection,
        texts: ReadonlyArray<string>
      ): Effect.Effect<Array<Array<number>>, EmbeddingFailed> =>
        Effect.gen(function*() {
          const target = yield* inForce.target(entryOf(connection), { workspaceId, actor: { kind: "system" } })
          const secrets = Option.toArray(Option.map(target.apiKey, Redacted.value))
          const model = yield* clients.embeddings(target)
          const embedded = yield* model.embedMany(texts).pipe(
            Effect.mapError((error) => fromAiError(error, secrets)),
            Effect.timeoutFail({
              duration: Duration.seconds(connection.requestTimeoutSeconds),
              onTimeout: () => ({
                message: `${connectionLabel(connection)} did not answer within ${connection.requestTimeoutSeconds} s`
              })
            })
          )
          if (embedded.length !== texts.length || embedded.some((vector) => vector.length === 0)) {
            return yield* Effect.fail({ message: `${connectionLabel(connection)} answered vectors of the wrong shape` })
          }
          return embedded
        }).pipe(Effect.mapError((failure): EmbeddingFailed => ({ message: failure.message })))

      /**
       * Embed the document's chunks that have no vector of its workspace's embeddings model yet
       * (nothing without a provider); true when none is left, false when the provider failed
       * (logged and counted; the sweep tries again).
       */
      const embedDocument = Effect.fn("KnowledgeEmbeddings.embedDocument")(function*(id: AiAgentKnowledgeId) {
        const document = yield* vectors.document(id)
        if (document === undefined || document.connection === null) return true
        return yield* embedChunks(document, document.connection)
      })

      const embedChunks = (document: EmbeddableDocument, connection: LlmConnection) =>
        Effect.gen(function*() {
          const chunks = yield* vectors.unembedded(document.id, connection.model)
          for (let from = 0; from < chunks.length; from += BATCH) {
            const batch = chunks.slice(from, from + BATCH)
            const embedded = yield* embed(document.workspaceId, connection, batch.map(embeddedText))
            const stored = yield* vectors.store(
              document,
              connection.model,
              batch.map((chunk, i) => ({ ordinal: chunk.ordinal, embedding: toBytes(normalized(embedded[i]!)) }))
            )
            // Indexed again meanwhile: its new chunks are embedded after their own indexing.
            if (!stored) return true
          }
          return true
        }).pipe(
          Effect.catchAll((failure) =>
            Effect.zipRight(
              Effect.zipRight(
                Metric.increment(indexFailures),
                Effect.logWarning("Knowledge chunks could not be embedded; the sweep will try again").pipe(
                  Effect.annotateLogs({ documentId: document.id, reason: failure.message })
                )
              ),
              Effect.succeed(false)
            )
          )
        )

      /**
       * Embed what waits for a vector, a few documents at a time; after a provider's failure the
       * rest of that workspace's documents wait for the next sweep (one failing request per
       * workspace and sweep, not one per document).
       */
      const sweep = Effect.gen(function*() {
        const failed = new Set<WorkspaceId>()
        const seen = new Set<AiAgentKnowledgeId>()
        for (;;) {
          const waiting = (yield* vectors.waiting(SWEEP_ROUND + seen.size)).filter((id) => !seen.has(id))
          if (waiting.length === 0) break
          for (const id of waiting) {
            seen.add(id)
            const document = yield* vectors.document(id)
            if (document === undefined || document.connection === null || failed.has(document.workspaceId)) continue
            if (!(yield* embedChunks(document, document.connection))) failed.add(document.workspaceId)
          }
        }
      }).pipe(Effect.withSpan("KnowledgeEmbeddings.sweep"))

      /**
       * The unit vector of a search's query through the workspace's embeddings provider, with its
       * model; none without a provider or when it fails (logged and counted).
       */
      const queryVector = Effect.fn("KnowledgeEmbeddings.queryVector")(
        function*(workspaceId: WorkspaceId, query: string) {
          const connection = yield* vectors.connectionOf(workspaceId)
          if (connection === null) return undefined
          return yield* embed(workspaceId, connection, [query]).pipe(
            Effect.map(([vector]): QueryVector => ({ model: connection.model, embedding: normalized(vector!) })),
            Effect.catchAll((failure) =>
              Effect.zipRight(
                Metric.increment(queryFailures),
                Effect.as(
                  Effect.logWarning("A knowledge query could not be embedded; searching lexically").pipe(
                    Effect.annotateLogs({ workspaceId, reason: failure.message })
                  ),
                  undefined
                )
              )
            )
          )
        }
      )

      return { embedDocument, sweep, queryVector } as const
    }),
    dependencies: [KnowledgeVectorRepo.Default]
  }
) {}
