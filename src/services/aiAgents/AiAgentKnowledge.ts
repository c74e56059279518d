/**
 * An agent's knowledge documents (`/ai-agents/{slug}/knowledge`), a draft
 * collection like tasks: every write locks the agent's row first
 * (`AgentDraftLock`), checks `If-Match`, bumps the draft's revision and
 * records an `ai-agent.item.*` audit event, all in one transaction. A write
 * that needs a new index (a new document, new `content`, `url` or `file`, a
 * new `language`, `reindex`)
 * leaves the document `pending` and, once committed, hands it to the
 * background indexer: the answer does not wait for indexing.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import { v7 as uuidv7 } from "uuid"
import type { AiAgentKnowledgeId } from "../../domain/aiAgents/Ids.js"
import {
  type AiAgentKnowledge as Document,
  type AiAgentKnowledgeCreate,
  type AiAgentKnowledgeDetail,
  AiAgentKnowledgeKindMismatch,
  type AiAgentKnowledgeListParams,
  AiAgentKnowledgeNotFound,
  type AiAgentKnowledgePatch,
  AiAgentKnowledgeUrlTaken
} from "../../domain/aiAgents/Knowledge.js"
import type { Origin } from "../../domain/identity/Origin.js"
import type { Principal } from "../../domain/identity/Principal.js"
import { pageOf } from "../../domain/Pagination.js"
import type { Revision } from "../../domain/Revision.js"
import { AiAgentKnowledgeRepo } from "../../persistence/aiAgents/AiAgentKnowledgeRepo.js"
import { transaction } from "../../persistence/Transaction.js"
import { AgentDraftLock } from "./AgentDraftLock.js"
import { AgentItemAudit } from "./AgentItemAudit.js"
import { KnowledgeIndexer } from "./KnowledgeIndexer.js"

const notFound = (id: string) =>
  new AiAgentKnowledgeNotFound({ knowledgeId: id, message: "No such document in this agent's knowledge" })
const urlTaken = (url: string) =>
  new AiAgentKnowledgeUrlTaken({ url, message: "Another document of this agent has this URL" })
const mismatch = (document: Document, field: "content" | "url" | "file") =>
  new AiAgentKnowledgeKindMismatch({
    kind: document.kind,
    field,
    message: document.kind === "url"
      ? "A url document has only a url: send a new url, or reindex: true to fetch it again"
      : document.kind === "pdf"
      ? "A pdf document has only a file: send a new file (base64), or reindex: true to extract it again"
      : `A ${document.kind} document has only content: send new content instead`
  })

export class AiAgentKnowledge extends Effect.Service<AiAgentKnowledge>()(
  "parley/services/aiAgents/AiAgentKnowledge",
  {
    effect: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const transactional = transaction(sql)
      const drafts = yield* AgentDraftLock
      const repo = yield* AiAgentKnowledgeRepo
      const audit = yield* AgentItemAudit
      const indexer = yield* KnowledgeIndexer
      const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

      const list = Effect.fn("AiAgentKnowledge.list")(
        function*(principal: Principal, slug: string, params: typeof AiAgentKnowledgeListParams.Type) {
          const agent = yield* drafts.find(principal, slug)
          const { limit, offset } = pageOf(params)
          const { items, total } = yield* repo.page(
            agent.id,
            { kind: params.kind, status: params.status, q: params.q },
            limit,
            offset
          )
          return { items, total, limit, offset }
        }
      )

      const get = Effect.fn("AiAgentKnowledge.get")(
        function*(principal: Principal, slug: string, id: AiAgentKnowledgeId) {
          const agent = yield* drafts.find(principal, slug)
          const found = (yield* repo.detail(agent.id, id)) ?? (yield* notFound(id))
          return { ...found.document, content: found.content } satisfies typeof AiAgentKnowledgeDetail.Type
        }
      )

      const create = Effect.fn("AiAgentKnowledge.create")(function*(
        principal: Principal,
        slug: string,
        input: typeof AiAgentKnowledgeCreate.Type,
        ifMatch: Revision | undefined,
        origin: Origin
      ) {
        const agent = yield* drafts.lock(principal, slug, ifMatch)
        if (input.url !== null && (yield* repo.urlTaken(agent.id, input.url))) return yield* urlTaken(input.url)
        const document = yield* repo.insert(uuidv7() as AiAgentKnowledgeId, agent.workspaceId, agent.id, input.kind, {
          title: input.title,
          content: input.content,
          url: input.url,
          file: input.file,
          language: input.language,
          enabled: input.enabled,
          reindex: true,
          at: yield* now
        })
        yield* drafts.bump(agent)
        yield* audit.item(
          principal,
          origin,
          agent,
          "ai-agent.item.created",
          "knowledge",
          document.id,
          Object.keys(input)
        )
        return document
      }, transactional)

      const update = Effect.fn("AiAgentKnowledge.update")(function*(
        principal: Principal,
        slug: string,
        id: AiAgentKnowledgeId,
        patch: typeof AiAgentKnowledgePatch.Type,
        ifMatch: Revision | undefined,
        origin: Origin
      ) {
        const agent = yield* drafts.lock(principal, slug, ifMatch)
        const current = (yield* repo.find(agent.id, id)) ?? (yield* notFound(id))
        if (patch.content !== undefined && (current.kind === "url" || current.kind === "pdf")) {
          return yield* mismatch(current, "content")
        }
        if (patch.url !== undefined && current.kind !== "url") return yield* mismatch(current, "url")
        if (patch.file !== undefined && current.kind !== "pdf") return yield* mismatch(current, "file")
        if (patch.url !== undefined && (yield* repo.urlTaken(agent.id, patch.url, id))) {
          return yield* urlTaken(patch.url)
        }
        const document = yield* repo.update(agent.id, id, {
          title: patch.title ?? current.title,
          content: patch.content ?? null,
          url: patch.url ?? current.url,
          file: patch.file ?? null,
          language: patch.language,
          enabled: patch.enabled ?? current.enabled,
          reindex: patch.content !== undefined || patch.url !== undefined || patch.file !== undefined ||
            (patch.language !== undefined && patch.language !== current.language) || patch.reindex === true,
          at: yield* now
        })
        yield* drafts.bump(agent)
        const changed = Object.entries(patch).filter(([, value]) => value !== undefined).map(([name]) => name)
        yield* audit.item(principal, origin, agent, "ai-agent.item.updated", "knowledge", id, changed)
        return document
      }, transactional)

      const remove = Effect.fn("AiAgentKnowledge.delete")(function*(
        principal: Principal,
        slug: string,
        id: AiAgentKnowledgeId,
        ifMatch: Revision | undefined,
        origin: Origin
      ) {
        const agent = yield* drafts.lock(principal, slug, ifMatch)
        if ((yield* repo.find(agent.id, id)) === undefined) return yield* notFound(id)
        yield* repo.delete(agent.id, id)
        yield* drafts.bump(agent)
        yield* audit.item(principal, origin, agent, "ai-agent.item.deleted", "knowledge", id, [])
      }, transactional)

      /** Index a document that waits, once its write has committed. */
      const indexed = (document: Document) =>
        Effect.as(document.status === "pending" ? indexer.schedule(document.id) : Effect.void, document)

      return {
        list,
        get,
        create: (...args: Parameters<typeof create>) => Effect.tap(create(...args), indexed),
        update: (...args: Parameters<typeof update>) => Effect.tap(update(...args), indexed),
        delete: remove
      } as const
    }),
    dependencies: [
      AgentDraftLock.Default,
      AgentItemAudit.Default,
      AiAgentKnowledgeRepo.Default,
      KnowledgeIndexer.Default
    ]
  }
) {}
