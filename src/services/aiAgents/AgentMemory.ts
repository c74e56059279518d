/**
 * An AI agent's memory: the facts API (`/ai-agents/{slug}/memory`) and, for
 * the runtime, the `remember` built-in and the facts a prompt draws on.
 * Memory is live data, not part of the draft: nothing here bumps the agent's
 * revision. Expired facts are never answered and are deleted lazily (each
 * operation purges the agent's). Each scope is bounded (`MemoryBounds`): a
 * new fact over the bound evicts the least used and oldest `conversation`
 * facts; a scope full of `manual` facts refuses a new one.
 *
 * For the runtime (H4):
 *   remember(agentId, workspaceId, { scope, endUserId, key, content, retention, conversationId })
 *     -> Effect<RememberResult>   (Kept { fact, replaced, evicted } | NotKept { reason, message }; never fails)
 *   forPrompt(agentId, endUserId | null, query, tokenBudget)
 *     -> Effect<ReadonlyArray<AiAgentMemory>>   (ranked by MemorySelection; bumps their use)
 */
import { SqlClient } from "@effect/sql"
import { Clock, DateTime, Effect, Schema } from "effect"
import { v7 as uuidv7 } from "uuid"
import { AiAgentNotFound } from "../../domain/aiAgents/AiAgent.js"
import type { AiAgentConversationId, AiAgentId, AiAgentMemoryId, EndUserId } from "../../domain/aiAgents/Ids.js"
import {
  type AiAgentMemory,
  type AiAgentMemoryCreate,
  AiAgentMemoryKey,
  AiAgentMemoryKeyTaken,
  type AiAgentMemoryListParams,
  AiAgentMemoryNotFound,
  type AiAgentMemoryPatch,
  type AiAgentMemoryRetention,
  type AiAgentMemoryScope
} from "../../domain/aiAgents/Memory.js"
import { factLimit } from "../../domain/aiAgents/MemoryBounds.js"
import { selectForPrompt } from "../../domain/aiAgents/MemorySelection.js"
import { ValidationFailed } from "../../domain/HttpErrors.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { Principal } from "../../domain/identity/Principal.js"
import { pageOf } from "../../domain/Pagination.js"
import { storable } from "../../domain/StorableText.js"
import { AiAgentMemoryRepo, type MemoryScopeRef } from "../../persistence/aiAgents/AiAgentMemoryRepo.js"
import { AiAgentRepo } from "../../persistence/aiAgents/AiAgentRepo.js"
import { transaction } from "../../persistence/Transaction.js"

/** What the `remember` built-in asks to keep. */
export interface RememberRequest {
  readonly scope: AiAgentMemoryScope
  /** The conversation's end user; null when the embedding site named none. */
  readonly endUserId: EndUserId | null
  readonly key: string | null
  readonly content: string
  readonly retention: AiAgentMemoryRetention
  readonly conversationId: AiAgentConversationId
}

/** Why `remember` kept nothing: an end-user fact without an end user, a scope full of manual facts, or bad input. */
export type NotKeptReason = "no-end-user" | "memory-full" | "invalid"

/** The outcome of `remember`: the model is told either way; neither is an error of the turn. */
export type RememberResult =
  | {
    readonly _tag: "Kept"
    readonly fact: AiAgentMemory
    /** A fact with the same key was replaced. */
    readonly replaced: boolean
    /** How many older conversation facts were forgotten to make room. */
    readonly evicted: number
  }
  | { readonly _tag: "NotKept"; readonly reason: NotKeptReason; readonly message: string }

const CONTENT_MAX = 2000

const notFound = (id: string) =>
  new AiAgentMemoryNotFound({ memoryId: id, message: "No such fact in the agent's memory" })
const keyTaken = (key: string) =>
  new AiAgentMemoryKeyTaken({ key, message: "Another fact of this scope already has this key" })
const scopeFull = (scope: AiAgentMemoryScope) =>
  new ValidationFailed({
    message:
      `The agent's ${scope === "agent" ? "memory" : "memory of this end user"} is full: it holds ${
        factLimit(scope)
      } facts, all written by hand, and those are never forgotten ` +
      "automatically. Delete some first.",
    fields: ["scope"]
  })
const pastExpiry = () => new ValidationFailed({ message: "expiresAt must lie in the future", fields: ["expiresAt"] })

const isKey = Schema.is(AiAgentMemoryKey)

export class AgentMemory extends Effect.Service<AgentMemory>()("parley/services/aiAgents/AgentMemory", {
  dependencies: [AiAgentMemoryRepo.Default, AiAgentRepo.Default],
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const repo = yield* AiAgentMemoryRepo
    const agents = yield* AiAgentRepo
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const agentOf = Effect.fn("AgentMemory.agentOf")(function*(principal: Principal, slug: string) {
      const agent = yield* agents.findBySlug(principal.workspaceId, slug)
      if (agent._tag === "None") return yield* new AiAgentNotFound({ slug, message: "No AI agent with this slug" })
      return agent.value
    })

    const futureOrNull = Effect.fn("AgentMemory.futureOrNull")(
      function*(expiresAt: DateTime.Utc | null, at: Date) {
        if (expiresAt === null) return null
        const date = DateTime.toDate(expiresAt)
        return date.getTime() > at.getTime() ? date : yield* pastExpiry()
      }
    )

    /**
     * Room for one more fact in the scope (its lock held): evicts the least
     * used and oldest conversation facts over the bound; false when the
     * scope is full of manual facts.
     */
    const makeRoom = Effect.fn("AgentMemory.makeRoom")(function*(ref: MemoryScopeRef) {
      const excess = (yield* repo.count(ref)) - factLimit(ref.scope) + 1
      if (excess <= 0) return { room: true, evicted: 0 }
      const evicted = yield* repo.evict(ref, excess)
      return { room: evicted >= excess, evicted }
    })

    const list = Effect.fn("AgentMemory.list")(
      function*(principal: Principal, slug: string, params: typeof AiAgentMemoryListParams.Type) {
        const agent = yield* agentOf(principal, slug)
        const at = yield* now
        yield* repo.purgeExpired(agent.id, at)
        const { limit, offset } = pageOf(params)
        const { items, total } = yield* repo.page(agent.id, params, limit, offset, at)
        return { items, total, limit, offset }
      }
    )

    const get = Effect.fn("AgentMemory.get")(function*(principal: Principal, slug: string, id: AiAgentMemoryId) {
      const agent = yield* agentOf(principal, slug)
      const found = yield* repo.find(agent.id, id, yield* now)
      return found?.fact ?? (yield* notFound(id))
    })

    const create = Effect.fn("AgentMemory.create")(function*(
      principal: Principal,
      slug: string,
      input: typeof AiAgentMemoryCreate.Type
    ) {
      const agent = yield* agentOf(principal, slug)
      const at = yield* now
      const expiresAt = yield* futureOrNull(input.expiresAt, at)
      const ref: MemoryScopeRef = { agentId: agent.id, scope: input.scope, endUserId: input.endUserId }
      yield* repo.lockScope(ref)
      yield* repo.purgeExpired(agent.id, at)
      const { room } = yield* makeRoom(ref)
      if (!room) return yield* scopeFull(input.scope)
      const inserted = yield* repo.insert(ref, {
        id: uuidv7() as AiAgentMemoryId,
        workspaceId: principal.workspaceId,
        source: "manual",
        conversationId: null,
        key: input.key,
        content: input.content,
        retention: input.retention,
        expiresAt,
        at
      })
      return inserted?.fact ?? (yield* keyTaken(input.key ?? ""))
    }, transactional)

    const update = Effect.fn("AgentMemory.update")(function*(
      principal: Principal,
      slug: string,
      id: AiAgentMemoryId,
      patch: typeof AiAgentMemoryPatch.Type
    ) {
      const agent = yield* agentOf(principal, slug)
      const at = yield* now
      const current = yield* repo.find(agent.id, id, at, true)
      if (current === undefined) return yield* notFound(id)
      const fact = current.fact
      const expiresAt = patch.expiresAt === undefined
        ? (fact.expiresAt === null ? null : DateTime.toDate(fact.expiresAt))
        : yield* futureOrNull(patch.expiresAt, at)
      const key = patch.key === undefined ? fact.key : patch.key
      const updated = yield* repo.update(agent.id, id, {
        key,
        content: patch.content ?? fact.content,
        retention: patch.retention ?? fact.retention,
        expiresAt,
        at
      })
      return updated?.fact ?? (yield* keyTaken(key ?? ""))
    }, transactional)

    const remove = Effect.fn("AgentMemory.delete")(function*(principal: Principal, slug: string, id: AiAgentMemoryId) {
      const agent = yield* agentOf(principal, slug)
      if (!(yield* repo.delete(agent.id, id, yield* now))) return yield* notFound(id)
    })

    const remember = Effect.fn("AgentMemory.remember")(
      function*(agentId: AiAgentId, workspaceId: WorkspaceId, request: RememberRequest) {
        if (request.scope === "end-user" && request.endUserId === null) {
          return {
            _tag: "NotKept",
            reason: "no-end-user",
            message: "This conversation has no known end user, so a fact about the end user cannot be kept."
          } satisfies RememberResult as RememberResult
        }
        const content = storable(request.content).trim().slice(0, CONTENT_MAX)
        if (content.length === 0 || (request.key !== null && !isKey(request.key))) {
          return {
            _tag: "NotKept",
            reason: "invalid",
            message: content.length === 0
              ? "The fact is empty."
              : "A memory key is 1 to 64 characters of a-z, 0-9, '_', '.' and '-', starting with a letter."
          } satisfies RememberResult as RememberResult
        }
        const at = yield* now
        const ref: MemoryScopeRef = {
          agentId,
          scope: request.scope,
          endUserId: request.scope === "agent" ? null : request.endUserId
        }
        yield* repo.lockScope(ref)
        yield* repo.purgeExpired(agentId, at)
        const write = { key: request.key, content, retention: request.retention, expiresAt: null, at }
        const existing = request.key === null ? undefined : yield* repo.findByKey(ref, request.key, at)
        if (existing !== undefined) {
          const replaced = yield* repo.update(agentId, existing.fact.id, write, {
            source: "conversation",
            conversationId: request.conversationId
          })
          if (replaced !== undefined) {
            return { _tag: "Kept", fact: replaced.fact, replaced: true, evicted: 0 } satisfies RememberResult
          }
        }
        const { evicted, room } = yield* makeRoom(ref)
        if (!room) {
          return {
            _tag: "NotKept",
            reason: "memory-full",
            message: "Memory is full of facts written by hand; nothing was forgotten to make room."
          } satisfies RememberResult as RememberResult
        }
        const inserted = yield* repo.insert(ref, {
          ...write,
          id: uuidv7() as AiAgentMemoryId,
          workspaceId,
          source: "conversation",
          conversationId: request.conversationId
        })
        // The scope's lock makes a key race impossible; were it to happen, nothing is kept rather than failing the turn.
        return inserted === undefined
          ? { _tag: "NotKept", reason: "invalid", message: "Another fact has this key." } satisfies RememberResult
          : { _tag: "Kept", fact: inserted.fact, replaced: false, evicted } satisfies RememberResult
      },
      transactional
    )

    /**
     * Reads see only live facts, so a turn purges nothing (writes and the
     * list do): one read, and a write only when facts are chosen (their use
     * counted, outside any transaction: a lost count costs nothing).
     */
    const forPrompt = Effect.fn("AgentMemory.forPrompt")(
      function*(agentId: AiAgentId, endUserId: EndUserId | null, query: string, tokenBudget: number) {
        const at = yield* now
        const candidates = yield* repo.promptCandidates(agentId, endUserId, at)
        const chosen = selectForPrompt(
          candidates.map((candidate) => ({
            fact: candidate.fact,
            key: candidate.fact.key,
            content: candidate.fact.content,
            updatedAtMillis: DateTime.toEpochMillis(candidate.fact.updatedAt)
          })),
          query,
          tokenBudget
        )
        yield* repo.markUsed(chosen.map((choice) => choice.fact.id), at)
        return chosen.map((choice) => choice.fact)
      }
    )

    return { list, get, create, update, delete: remove, remember, forPrompt } as const
  })
}) {}
