/**
 * What authentication needs on every request, without a database round trip:
 * whether a session is live, a user's memberships and email state, and an API
 * token's grant. Each node caches them and every change is announced on the
 * PostgreSQL channel `parley_identity` (NOTIFY, sent inside the transaction
 * that made it, so it is delivered exactly when it commits); every node,
 * the sender included, drops what the announcement names. While the listener is
 * not connected, nothing is cached, so a missed announcement cannot keep a
 * revoked session alive. Entries also expire after a minute, as a last guard.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Clock, Effect, Option, Schedule, Stream } from "effect"
import { v4 as uuidv4 } from "uuid"
import type { Role } from "../../domain/Capability.js"
import type { ApiTokenId, SessionId, UserId, WorkspaceId } from "../../domain/identity/Ids.js"
import { ApiTokenRepo } from "../../persistence/identity/ApiTokenRepo.js"
import { SessionRepo } from "../../persistence/identity/SessionRepo.js"
import { UserRepo } from "../../persistence/identity/UserRepo.js"
import { WorkspaceRepo } from "../../persistence/identity/WorkspaceRepo.js"

/** The channel of identity changes. */
export const IDENTITY_CHANNEL = "parley_identity"

const MAX_AGE_MS = 60_000
const MAX_ENTRIES = 10_000

/** A live session. */
export interface LiveSession {
  readonly sessionId: SessionId
  readonly userId: UserId
  readonly expiresAt: number
}

/** What a user may act as: their email state and their role in each workspace, oldest membership first. */
export interface UserGrants {
  readonly userId: UserId
  readonly displayName: string
  readonly emailVerified: boolean
  readonly mfaEnabled: boolean
  readonly memberships: ReadonlyArray<{ readonly workspaceId: WorkspaceId; readonly role: Role }>
}

/** A live API token's grant. */
export interface TokenGrant {
  readonly tokenId: ApiTokenId
  readonly workspaceId: WorkspaceId
  readonly role: Role
  readonly name: string
  readonly expiresAt: number | null
}

/** A change that makes cached identity stale. */
export type IdentityChange =
  | { readonly kind: "session"; readonly id: SessionId }
  | { readonly kind: "user"; readonly id: UserId }
  | { readonly kind: "token"; readonly id: ApiTokenId }
  | { readonly kind: "everything" }

/**
 * Announce identity changes to every node, without caching anything here (the
 * operator's commands use it). Call it inside the transaction that makes the
 * changes: the announcement is delivered when, and only if, it commits.
 */
export const announceChanges = (...changes: ReadonlyArray<IdentityChange>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.forEach(
      changes,
      (change) => sql`SELECT pg_notify(${IDENTITY_CHANNEL}, ${JSON.stringify(change)})`,
      { discard: true }
    )).pipe(Effect.orDie, Effect.withSpan("IdentityDirectory.announce"))

class TimedCache<K, V> {
  private readonly entries = new Map<K, { readonly value: V; readonly at: number }>()
  get(key: K, now: number): V | undefined {
    const entry = this.entries.get(key)
    if (entry === undefined) return undefined
    if (now - entry.at > MAX_AGE_MS) {
      this.entries.delete(key)
      return undefined
    }
    return entry.value
  }
  set(key: K, value: V, now: number) {
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!)
    this.entries.set(key, { value, at: now })
  }
  deleteWhere(test: (key: K, value: V) => boolean) {
    for (const [key, entry] of this.entries) if (test(key, entry.value)) this.entries.delete(key)
  }
  clear() {
    this.entries.clear()
  }
}

export class IdentityDirectory
  extends Effect.Service<IdentityDirectory>()("parley/services/identity/IdentityDirectory", {
    scoped: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const pg = yield* PgClient.PgClient
      const sessions = yield* SessionRepo
      const users = yield* UserRepo
      const workspaces = yield* WorkspaceRepo
      const tokens = yield* ApiTokenRepo

      const sessionCache = new TimedCache<SessionId, LiveSession>()
      const grantCache = new TimedCache<UserId, UserGrants>()
      const tokenCache = new TimedCache<string, TokenGrant>()
      let listening = false

      const forget = (change: IdentityChange) => {
        switch (change.kind) {
          case "session":
            return sessionCache.deleteWhere((id) => id === change.id)
          case "user":
            sessionCache.deleteWhere((_, session) => session.userId === change.id)
            return grantCache.deleteWhere((id) => id === change.id)
          case "token":
            return tokenCache.deleteWhere((_, grant) => grant.tokenId === change.id)
          case "everything":
            return forgetAll()
        }
      }
      const forgetAll = () => {
        sessionCache.clear()
        grantCache.clear()
        tokenCache.clear()
      }

      // Listen for changes for the life of the node. Caching starts only once this node has heard its own
      // "ready" announcement (so the listener is live), and stops whenever the listener breaks.
      const readyNonce = uuidv4()
      const handle = (payload: string) => {
        try {
          const message = JSON.parse(payload) as IdentityChange | { readonly kind: "ready"; readonly nonce: string }
          if (message.kind === "ready") {
            if (message.nonce === readyNonce) listening = true
          } else {
            forget(message)
          }
        } catch {
          forgetAll()
        }
      }
      const ready = JSON.stringify({ kind: "ready", nonce: readyNonce })
      const pingUntilListening = sql`SELECT pg_notify(${IDENTITY_CHANNEL}, ${ready})`.pipe(
        Effect.orDie,
        Effect.repeat({ schedule: Schedule.spaced("200 millis"), until: () => listening })
      )
      const listenOnce = Effect.gen(function*() {
        yield* Effect.forkScoped(pingUntilListening)
        yield* pg.listen(IDENTITY_CHANNEL).pipe(Stream.runForEach((payload) => Effect.sync(() => handle(payload))))
      }).pipe(
        Effect.scoped,
        Effect.ensuring(Effect.sync(() => {
          listening = false
          forgetAll()
        }))
      )
      yield* listenOnce.pipe(
        Effect.catchAllCause((cause) => Effect.logWarning("Identity change listener stopped; retrying", cause)),
        Effect.repeat(Schedule.spaced("1 second")),
        Effect.forkScoped
      )

      const cached = <K, V>(cache: TimedCache<K, V>, key: K, load: Effect.Effect<Option.Option<V>>) =>
        Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          const hit = listening ? cache.get(key, now) : undefined
          if (hit !== undefined) return Option.some(hit)
          const loaded = yield* load
          if (listening && Option.isSome(loaded)) cache.set(key, loaded.value, now)
          return loaded
        })

      /** A session that is neither revoked nor expired. */
      const liveSession = (sessionId: SessionId) =>
        Effect.flatMap(
          cached(
            sessionCache,
            sessionId,
            Effect.map(sessions.findById(sessionId), (row) =>
              Option.filterMap(row, (row) =>
                row.revokedAt === null
                  ? Option.some<LiveSession>({ sessionId, userId: row.userId, expiresAt: row.expiresAt.getTime() })
                  : Option.none())).pipe(Effect.withSpan("IdentityDirectory.liveSession"))
          ),
          (session) =>
            Effect.map(
              Clock.currentTimeMillis,
              (now) => Option.filter(session, (live) => live.expiresAt > now)
            )
        )

      const grantsOf = (userId: UserId) =>
        cached(
          grantCache,
          userId,
          Effect.gen(function*() {
            const user = yield* users.findById(userId)
            if (Option.isNone(user)) return Option.none()
            const memberships = yield* workspaces.membershipsOf(userId)
            return Option.some<UserGrants>({
              userId,
              displayName: user.value.displayName,
              emailVerified: user.value.emailVerifiedAt !== null,
              mfaEnabled: user.value.mfaEnabledAt !== null,
              memberships: memberships.map((m) => ({ workspaceId: m.workspace.id, role: m.role }))
            })
          }).pipe(Effect.withSpan("IdentityDirectory.grantsOf"))
        )

      const tokenGrant = (tokenHash: string) =>
        Effect.flatMap(
          cached(
            tokenCache,
            tokenHash,
            Effect.map(tokens.findByHash(tokenHash), (row) =>
              Option.filterMap(row, (row) =>
                row.revokedAt === null
                  ? Option.some<TokenGrant>({
                    tokenId: row.id,
                    workspaceId: row.workspaceId,
                    role: row.role,
                    name: row.name,
                    expiresAt: row.expiresAt?.getTime() ?? null
                  })
                  : Option.none())).pipe(Effect.withSpan("IdentityDirectory.tokenGrant"))
          ),
          (grant) =>
            Effect.map(
              Clock.currentTimeMillis,
              (now) => Option.filter(grant, (live) => live.expiresAt === null || live.expiresAt > now)
            )
        )

      /**
       * Announce changes to every node. Call it inside the transaction that makes
       * them: the announcement is delivered when, and only if, it commits.
       */
      const announce = (...changes: ReadonlyArray<IdentityChange>) =>
        Effect.zipRight(
          Effect.sync(() => changes.forEach(forget)),
          announceChanges(...changes).pipe(Effect.provideService(SqlClient.SqlClient, sql))
        )

      return { liveSession, grantsOf, tokenGrant, announce } as const
    }),
    dependencies: [SessionRepo.Default, UserRepo.Default, WorkspaceRepo.Default, ApiTokenRepo.Default]
  })
{}
