/**
 * The workspace audit log: every write (and sign-in) appended to an
 * append-only chain per workspace, each record hashed over its predecessor's
 * hash and its own canonical JSON, so an edited, removed or reordered record
 * is found by `verifyChain`.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect, Schema } from "effect"
import * as Crypto from "node:crypto"
import { v7 as uuidv7 } from "uuid"
import { canonicalJson } from "../domain/CanonicalJson.js"
import { truncate } from "../domain/Excerpt.js"
import type { AuditActor } from "../domain/identity/Actor.js"
import { type AuditQuery, AuditRecord } from "../domain/identity/AuditRecord.js"
import type { WorkspaceId } from "../domain/identity/Ids.js"
import { type Page, pageOf } from "../domain/Pagination.js"
import { AuditRepo, type StoredAuditRow } from "../persistence/AuditRepo.js"
import { transaction } from "../persistence/Transaction.js"

/** What a caller records: the log adds the id, the time and the place in the chain. */
export interface AuditEntry {
  readonly workspaceId: WorkspaceId
  readonly actor: AuditActor
  readonly actorDisplay: string
  readonly action: string
  readonly resourceType: string
  readonly resourceId: string | null
  readonly summary: {
    readonly before: Record<string, unknown> | null
    readonly after: Record<string, unknown> | null
  }
  readonly traceId: string | null
  readonly ipAddress: string | null
  readonly userAgent: string | null
}

/** The outcome of checking a workspace's chain: intact, or the sequence of the first broken record and why. */
export type ChainVerification =
  | { readonly ok: true; readonly records: number }
  | { readonly ok: false; readonly brokenAt: number; readonly reason: string }

/** Keys whose values are never written to the log, whatever a caller passes. */
const SECRET_KEY = /password|secret|token|code|hash/i

/**
 * Replace the value of every key that looks like it holds a secret
 * (`password`, `secret`, `token`, `code`, `hash`, in any case and anywhere in
 * the key: `apiToken`, `totpCode`, `tokenId` too), at any depth, with
 * `"[redacted]"`. A safety net under the callers, which should leave secrets
 * out of a summary in the first place; it errs on the side of hiding.
 */
export const redact = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(redact)
  if (typeof value !== "object" || value === null || value instanceof Date) return value
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [key, SECRET_KEY.test(key) ? "[redacted]" : redact(field)])
  )
}

/** The fields of a record that its hash covers: all but `hash` and `prevHash`, the time as an ISO string. */
export interface AuditContent {
  readonly id: string
  readonly workspaceId: string
  readonly sequence: number
  readonly actor: unknown
  readonly actorDisplay: string
  readonly action: string
  readonly resourceType: string
  readonly resourceId: string | null
  readonly summary: unknown
  readonly traceId: string | null
  readonly ipAddress: string | null
  readonly userAgent: string | null
  readonly occurredAt: string
}

/** A record's hash: SHA-256 hex of the previous hash (empty for the first), a newline and the canonical JSON of its content. */
export const chainHash = (prevHash: string | null, content: AuditContent): string =>
  Crypto.createHash("sha256").update(`${prevHash ?? ""}\n${canonicalJson(content)}`).digest("hex")

const contentOf = (row: StoredAuditRow): AuditContent => ({
  id: row.id,
  workspaceId: row.workspaceId,
  sequence: row.sequence,
  actor: row.actor,
  actorDisplay: row.actorDisplay,
  action: row.action,
  resourceType: row.resourceType,
  resourceId: row.resourceId,
  summary: row.summary,
  traceId: row.traceId,
  ipAddress: row.ipAddress,
  userAgent: row.userAgent,
  occurredAt: row.occurredAt.toISOString()
})

/** A value as it reads back from a jsonb column, so the hash covers exactly what is stored. */
const asStored = (value: unknown): unknown => JSON.parse(canonicalJson(value))

const decodeRecord = Schema.decodeUnknown(AuditRecord)

/** How many records `verifyChain` reads at a time. */
const VERIFY_BATCH = 1_000

/** The workspace audit log: append-only, hash-chained per workspace. */
export class AuditLog extends Effect.Service<AuditLog>()("parley/services/AuditLog", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const repo = yield* AuditRepo

    const appendTo = (workspaceIds: ReadonlyArray<WorkspaceId>, entry: Omit<AuditEntry, "workspaceId">) =>
      Effect.gen(function*() {
        // Locks are taken in one order, so two multi-workspace appends cannot deadlock.
        const chains = [...new Set(workspaceIds)].sort()
        yield* Effect.forEach(chains, repo.lockChain, { discard: true })
        // Read under the locks, so the times of a chain written by one node never go backwards.
        const occurredAt = new Date(yield* Clock.currentTimeMillis)
        const actor = asStored(entry.actor)
        const summary = asStored({ before: redact(entry.summary.before), after: redact(entry.summary.after) })
        const actorDisplay = truncate(entry.actorDisplay, 200)
        const userAgent = entry.userAgent === null ? null : truncate(entry.userAgent, 512)
        for (const workspaceId of chains) {
          const previous = yield* repo.head(workspaceId)
          const prevHash = previous._tag === "Some" ? previous.value.hash : null
          const content: AuditContent = {
            id: uuidv7(),
            workspaceId,
            sequence: previous._tag === "Some" ? previous.value.sequence + 1 : 1,
            actor,
            actorDisplay,
            action: entry.action,
            resourceType: entry.resourceType,
            resourceId: entry.resourceId,
            summary,
            traceId: entry.traceId,
            ipAddress: entry.ipAddress,
            userAgent,
            occurredAt: occurredAt.toISOString()
          }
          const hash = chainHash(prevHash, content)
          // A record the log could not read back is a caller's bug: refuse it here, not on every later list.
          yield* decodeRecord({ ...content, occurredAt, prevHash, hash })
          yield* repo.insert({
            ...content,
            workspaceId,
            actorJson: JSON.stringify(actor),
            summaryJson: JSON.stringify(summary),
            occurredAt,
            prevHash,
            hash
          })
        }
      }).pipe(
        // Joins the caller's transaction (as a savepoint) when there is one, so the record commits with the write.
        transactional,
        Effect.orDie
      )

    const append = Effect.fn("AuditLog.append")(function*(entry: AuditEntry) {
      const { workspaceId, ...rest } = entry
      yield* appendTo([workspaceId], rest)
    })

    const appendMany = Effect.fn("AuditLog.appendMany")(
      function*(workspaceIds: ReadonlyArray<WorkspaceId>, entry: Omit<AuditEntry, "workspaceId">) {
        if (workspaceIds.length > 0) yield* appendTo(workspaceIds, entry)
      }
    )

    const list = Effect.fn("AuditLog.list")(function*(workspaceId: WorkspaceId, query: AuditQuery) {
      const { limit, offset } = pageOf(query)
      const [items, total] = yield* Effect.all([
        repo.page(workspaceId, query, limit, offset),
        repo.count(workspaceId, query)
      ])
      return { items, total, limit, offset } satisfies Page<AuditRecord>
    })

    const verifyChain = Effect.fn("AuditLog.verifyChain")(
      function*(workspaceId: WorkspaceId) {
        let expected = 1
        let prevHash: string | null = null
        while (true) {
          const rows: ReadonlyArray<StoredAuditRow> = yield* repo.chain(workspaceId, expected - 1, VERIFY_BATCH)
          for (const row of rows) {
            if (row.sequence !== expected) {
              return { ok: false, brokenAt: row.sequence, reason: `sequence ${expected} is missing` } as const
            }
            if (row.prevHash !== prevHash) {
              return {
                ok: false,
                brokenAt: row.sequence,
                reason: "prevHash is not the previous record's hash"
              } as const
            }
            if (chainHash(prevHash, contentOf(row)) !== row.hash) {
              return { ok: false, brokenAt: row.sequence, reason: "hash does not match the record's content" } as const
            }
            prevHash = row.hash
            expected++
          }
          if (rows.length < VERIFY_BATCH) return { ok: true, records: expected - 1 } as const
        }
      }
    )

    return {
      /** Append one record to its workspace's chain, in the caller's transaction if there is one. */
      append: (entry: AuditEntry): Effect.Effect<void> => append(entry),
      /** Append the same record to several workspaces' chains (account events: a login, a password change). */
      appendMany: (
        workspaceIds: ReadonlyArray<WorkspaceId>,
        entry: Omit<AuditEntry, "workspaceId">
      ): Effect.Effect<void> => appendMany(workspaceIds, entry),
      /** One page of a workspace's records that match `query`, newest first. */
      list: (workspaceId: WorkspaceId, query: AuditQuery): Effect.Effect<Page<AuditRecord>> => list(workspaceId, query),
      /** Recompute a workspace's chain from its first record and report the first break. */
      verifyChain: (workspaceId: WorkspaceId): Effect.Effect<ChainVerification> => verifyChain(workspaceId)
    } as const
  }),
  dependencies: [AuditRepo.Default]
}) {}
