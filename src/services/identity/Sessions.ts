/**
 * Signed-in sessions. A session is a refresh-token family: every refresh
 * exchanges the presented token for a new one, once (the row is locked), and
 * presenting an exchanged token again (a stolen copy, or its thief's) ends the
 * whole session. Ending a session is announced to every node, so its access
 * tokens stop working at once.
 */
import { SqlClient } from "@effect/sql"
import { Clock, DateTime, Duration, Effect, Option } from "effect"
import { v7 as uuidv7 } from "uuid"
import { SessionLifetimes } from "../../config/Settings.js"
import type { SessionId, UserId } from "../../domain/identity/Ids.js"
import { InvalidToken, TokenExpired } from "../../domain/identity/OneTimeToken.js"
import type { Origin } from "../../domain/identity/Origin.js"
import { ReauthenticationRequired, Session, SessionNotFound } from "../../domain/identity/Session.js"
import { MAX_SESSIONS_PER_USER, RECENT_AUTHENTICATION_SECONDS } from "../../domain/identity/SessionPolicy.js"
import { SessionRepo, type SessionRow } from "../../persistence/identity/SessionRepo.js"
import { transaction } from "../../persistence/Transaction.js"
import { generateToken, hashToken } from "../OpaqueTokens.js"
import { AccessTokens } from "./AccessTokens.js"
import { AccountAudit } from "./AccountAudit.js"
import { IdentityDirectory } from "./IdentityDirectory.js"

/** What a sign-in hands the client: two access tokens (one for the body, one only for the cookie) and the refresh token. */
export interface Issued {
  readonly sessionId: SessionId
  readonly userId: UserId
  /** For `Authorization: Bearer`, returned in the body. */
  readonly accessToken: string
  /** A distinct token of the same session, sent only in the httpOnly cookie (ASVS 3.3.4). */
  readonly cookieAccessToken: string
  readonly expiresIn: number
  /** Opaque, 256 bits; sent only in the httpOnly refresh cookie. */
  readonly refreshToken: string
  /** Seconds the session (and so the refresh cookie) may still live. */
  readonly refreshMaxAge: number
}

const secondsBetween = (later: Date, earlier: Date) =>
  Math.max(0, Math.floor((later.getTime() - earlier.getTime()) / 1000))

export class Sessions extends Effect.Service<Sessions>()("parley/services/identity/Sessions", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const repo = yield* SessionRepo
    const accessTokens = yield* AccessTokens
    const directory = yield* IdentityDirectory
    const audit = yield* AccountAudit
    const lifetimes = yield* SessionLifetimes
    const maxAgeMillis = Duration.toMillis(lifetimes.maxAge)
    const idleMillis = Duration.toMillis(lifetimes.idleTimeout)

    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const issue = (session: { id: SessionId; userId: UserId; expiresAt: Date }, at: Date) =>
      Effect.gen(function*() {
        const refreshToken = generateToken()
        yield* repo.insertRefreshToken({ tokenHash: hashToken(refreshToken), sessionId: session.id, createdAt: at })
        const subject = { userId: session.userId, sessionId: session.id }
        const body = yield* accessTokens.issue(subject)
        const cookie = yield* accessTokens.issue(subject)
        return {
          sessionId: session.id,
          userId: session.userId,
          accessToken: body.token,
          cookieAccessToken: cookie.token,
          expiresIn: body.expiresIn,
          refreshToken,
          refreshMaxAge: secondsBetween(session.expiresAt, at)
        } satisfies Issued
      })

    /** Begin a session for a user who just proved who they are (password, and MFA when on). */
    const start = Effect.fn("Sessions.start")(
      function*(userId: UserId, origin: Origin) {
        const at = yield* now
        const session = {
          id: uuidv7() as SessionId,
          userId,
          userAgent: origin.userAgent,
          ipAddress: origin.ipAddress,
          createdAt: at,
          authenticatedAt: at,
          lastUsedAt: at,
          expiresAt: new Date(at.getTime() + maxAgeMillis)
        }
        yield* repo.insert(session)
        const ended = yield* repo.revokeBeyond(userId, MAX_SESSIONS_PER_USER, "session-limit", at)
        yield* directory.announce(...ended.map((id) => ({ kind: "session", id }) as const))
        return yield* issue(session, at)
      },
      transactional
    )

    const refused = (message: string) => new InvalidToken({ purpose: "refresh", message })

    /** End sessions and announce it; answers how many ended. */
    const end = (where: Parameters<typeof repo.revoke>[0], reason: string, userId: UserId) =>
      Effect.gen(function*() {
        const ended = yield* repo.revoke(where, reason, yield* now)
        yield* directory.announce(...ended.map((id) => ({ kind: "session", id }) as const))
        return ended.length
      }).pipe(Effect.withSpan("Sessions.end", { attributes: { reason, userId } }))

    type Exchange =
      | { readonly _tag: "Issued"; readonly issued: Issued }
      | { readonly _tag: "Refused"; readonly error: InvalidToken | TokenExpired }

    const refusal = (error: InvalidToken | TokenExpired): Exchange => ({ _tag: "Refused", error })

    // The exchange commits whatever it decided, including ending a session whose token was
    // replayed, and only then answers; a failure inside the transaction would roll that back.
    const exchange = (refreshToken: string, origin: Origin) =>
      Effect.gen(function*() {
        const at = yield* now
        const token = yield* repo.lockRefreshToken(hashToken(refreshToken))
        if (Option.isNone(token)) return refusal(refused("This session is not known; sign in again"))
        const session = Option.getOrThrow(yield* repo.findById(token.value.sessionId))
        if (session.revokedAt !== null) return refusal(refused("This session has ended; sign in again"))
        if (token.value.usedAt !== null) {
          // The token was exchanged before: a copy is in someone else's hands. End the family.
          yield* end({ sessionId: session.id }, "refresh-token-reused", session.userId)
          yield* audit.record(session.userId, origin, {
            action: "auth.session.refresh-token-reused",
            resourceType: "session",
            resourceId: session.id,
            summary: { before: null, after: { sessionEnded: true } }
          })
          return refusal(refused("This refresh token was already used; the session has been ended for safety"))
        }
        const idleUntil = session.lastUsedAt.getTime() + idleMillis
        if (session.expiresAt <= at || idleUntil <= at.getTime()) {
          yield* end({ sessionId: session.id }, "expired", session.userId)
          return refusal(new TokenExpired({ purpose: "refresh", message: "This session has expired; sign in again" }))
        }
        yield* repo.markUsed(token.value.tokenHash, session.id, at)
        return { _tag: "Issued", issued: yield* issue(session, at) } satisfies Exchange
      }).pipe(transactional)

    /** Exchange a refresh token for new tokens; a reused one ends its session. */
    const refresh = Effect.fn("Sessions.refresh")(function*(refreshToken: string, origin: Origin) {
      const outcome = yield* exchange(refreshToken, origin)
      return outcome._tag === "Issued" ? outcome.issued : yield* Effect.fail(outcome.error)
    })

    /** Sign out one session. */
    const logout = Effect.fn("Sessions.logout")(
      function*(userId: UserId, sessionId: SessionId, origin: Origin) {
        yield* end({ sessionId, userId }, "logout", userId)
        yield* audit.record(userId, origin, {
          action: "auth.logout",
          resourceType: "session",
          resourceId: sessionId,
          summary: { before: null, after: null }
        })
      },
      transactional
    )

    /** Sign out every session of a user, or every other one. */
    const revokeAll = Effect.fn("Sessions.revokeAll")(
      function*(userId: UserId, origin: Origin, keep: Option.Option<SessionId>, reason = "revoke-sessions") {
        const revoked = yield* end(
          Option.match(keep, { onNone: () => ({ userId }), onSome: (except) => ({ userId, except }) }),
          reason,
          userId
        )
        yield* audit.record(userId, origin, {
          action: "auth.sessions.revoked",
          resourceType: "session",
          resourceId: null,
          summary: { before: null, after: { revoked, reason } }
        })
        return revoked
      },
      transactional
    )

    const toSession = (row: SessionRow, current: SessionId) => ({
      ...Session.make({
        id: row.id,
        userId: row.userId,
        refreshTokenHash: "",
        previousRefreshTokenHash: null,
        userAgent: row.userAgent,
        ipAddress: row.ipAddress,
        createdAt: DateTime.unsafeFromDate(row.createdAt),
        authenticatedAt: DateTime.unsafeFromDate(row.authenticatedAt),
        lastUsedAt: DateTime.unsafeFromDate(row.lastUsedAt),
        expiresAt: DateTime.unsafeFromDate(row.expiresAt)
      }),
      current: row.id === current
    })

    /** A user's live sessions, the current one marked. */
    const list = Effect.fn("Sessions.list")(function*(userId: UserId, current: SessionId) {
      const rows = yield* repo.activeOfUser(userId, yield* now)
      return rows.map((row) => toSession(row, current))
    })

    /**
     * Refuse unless the current session proved every factor recently (its
     * sign-in or a re-authentication), so a stolen session cannot sign its
     * rightful owner out of their other sessions.
     */
    const requireRecentAuthentication = (current: SessionId) =>
      Effect.gen(function*() {
        const at = yield* now
        const session = yield* repo.findById(current)
        const recent = Option.exists(
          session,
          (row) => row.authenticatedAt.getTime() + RECENT_AUTHENTICATION_SECONDS * 1000 > at.getTime()
        )
        if (!recent) {
          return yield* new ReauthenticationRequired({
            maxAgeSeconds: RECENT_AUTHENTICATION_SECONDS,
            message: "Confirm your password (and code) at POST /v1/auth/reauthenticate, then try again"
          })
        }
      })

    /** Record that a session just proved every factor again (run inside the transaction that checked them). */
    const reauthenticated = (sessionId: SessionId, at: Date) => repo.markAuthenticated(sessionId, at)

    /** End one of the user's own sessions; another than the current one needs a recent authentication. */
    const endOne = Effect.fn("Sessions.endOne")(
      function*(userId: UserId, sessionId: SessionId, current: SessionId, origin: Origin) {
        if (sessionId !== current) yield* requireRecentAuthentication(current)
        const ended = yield* end({ sessionId, userId }, "ended-by-user", userId)
        if (ended === 0) {
          return yield* new SessionNotFound({ sessionId, message: "You have no live session with this id" })
        }
        yield* audit.record(userId, origin, {
          action: "auth.session.ended",
          resourceType: "session",
          resourceId: sessionId,
          summary: { before: null, after: null }
        })
      },
      transactional
    )

    /** Sign out every other session of the user; needs a recent authentication. */
    const endOthers = Effect.fn("Sessions.endOthers")(
      function*(userId: UserId, current: SessionId, origin: Origin) {
        yield* requireRecentAuthentication(current)
        return yield* revokeAll(userId, origin, Option.some(current))
      }
    )

    return { start, refresh, logout, revokeAll, list, endOne, endOthers, reauthenticated } as const
  })
}) {}
