/**
 * Workspace API tokens for automation: shown once (`pat_…`), stored as a
 * SHA-256 hash, with a role no higher than their creator's, revocable at once
 * on every node. A token authenticates as itself, in its own workspace.
 */
import { SqlClient } from "@effect/sql"
import { Clock, DateTime, Duration, Effect, Option, Redacted } from "effect"
import { v7 as uuidv7 } from "uuid"
import { type Role, roleAtLeast } from "../../domain/Capability.js"
import * as HttpErrors from "../../domain/HttpErrors.js"
import { API_TOKEN_PREFIX, ApiTokenNameTaken, ApiTokenNotFound } from "../../domain/identity/ApiToken.js"
import type { ApiTokenId } from "../../domain/identity/Ids.js"
import type { Origin } from "../../domain/identity/Origin.js"
import { OwnerOnly } from "../../domain/identity/OwnerOnly.js"
import type { Principal } from "../../domain/identity/Principal.js"
import type { ListParams } from "../../domain/Pagination.js"
import { ApiTokenRepo, toApiToken } from "../../persistence/identity/ApiTokenRepo.js"
import { transaction } from "../../persistence/Transaction.js"
import { generateToken, hashToken } from "../OpaqueTokens.js"
import { IdentityDirectory, type TokenGrant } from "./IdentityDirectory.js"
import { pageFrom, Workspaces } from "./Workspaces.js"

/** How far ahead a token's expiry may be set. */
const MAX_LIFETIME = Duration.days(366)
/** How often a token's `lastUsedAt` is written, at most, per node. */
const TOUCH_EVERY_MILLIS = 60_000

export class ApiTokens extends Effect.Service<ApiTokens>()("parley/services/identity/ApiTokens", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const repo = yield* ApiTokenRepo
    const directory = yield* IdentityDirectory
    const workspaces = yield* Workspaces
    const touched = new Map<ApiTokenId, number>()

    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    /** Create a token in the principal's workspace; the answer is the only time its secret is shown. */
    const create = Effect.fn("ApiTokens.create")(
      function*(
        principal: Principal,
        input: { name: string; role: Role; expiresAt: DateTime.Utc | null },
        origin: Origin
      ) {
        if (principal._tag !== "User") {
          return yield* new HttpErrors.Forbidden({ message: "Only a signed-in member creates API tokens, not a token" })
        }
        if (input.role === "owner" && principal.role !== "owner") {
          return yield* new OwnerOnly({ action: "grant-owner", message: "Only an owner may create an owner token" })
        }
        if (!roleAtLeast(principal.role, input.role)) {
          return yield* new HttpErrors.Forbidden({ message: `A token's role cannot exceed yours (${principal.role})` })
        }
        const at = yield* now
        const expiresAt = input.expiresAt === null ? null : DateTime.toDate(input.expiresAt)
        if (
          expiresAt !== null &&
          (expiresAt <= at || expiresAt.getTime() - at.getTime() > Duration.toMillis(MAX_LIFETIME))
        ) {
          return yield* new HttpErrors.ValidationFailed({
            message: "expiresAt must be in the future and at most a year away",
            fields: ["expiresAt"]
          })
        }
        const token = generateToken(API_TOKEN_PREFIX)
        const row = {
          id: uuidv7() as ApiTokenId,
          workspaceId: principal.workspaceId,
          name: input.name,
          role: input.role,
          hint: token.slice(0, API_TOKEN_PREFIX.length + 6),
          tokenHash: hashToken(token),
          createdBy: principal.userId,
          createdAt: at,
          lastUsedAt: null,
          expiresAt,
          revokedAt: null
        }
        if (!(yield* repo.insert(row))) {
          return yield* new ApiTokenNameTaken({
            name: input.name,
            message: "A live token of this workspace has this name"
          })
        }
        yield* workspaces.record(principal, origin, {
          action: "api-token.created",
          resourceType: "api-token",
          resourceId: row.id,
          summary: {
            before: null,
            after: { name: input.name, role: input.role, expiresAt: expiresAt?.toISOString() ?? null }
          }
        })
        return { ...toApiToken(row), token: Redacted.make(token) }
      },
      transactional
    )

    const list = Effect.fn("ApiTokens.list")(function*(principal: Principal, params: ListParams) {
      return pageFrom((yield* repo.list(principal.workspaceId)).map(toApiToken), params)
    })

    /** Revoke a token: it stops working at once, on every node. */
    const revoke = Effect.fn("ApiTokens.revoke")(function*(principal: Principal, id: ApiTokenId, origin: Origin) {
      if (!(yield* repo.revoke(principal.workspaceId, id, yield* now))) {
        return yield* new ApiTokenNotFound({ tokenId: id, message: "No such live token in this workspace" })
      }
      yield* directory.announce({ kind: "token", id })
      yield* workspaces.record(principal, origin, {
        action: "api-token.revoked",
        resourceType: "api-token",
        resourceId: id,
        summary: { before: null, after: null }
      })
    }, transactional)

    /** The grant of a presented token, when it is live; its use is recorded at most once a minute per node. */
    const authenticate = Effect.fn("ApiTokens.authenticate")(function*(token: string) {
      const grant: Option.Option<TokenGrant> = yield* directory.tokenGrant(hashToken(token))
      if (Option.isSome(grant)) {
        const at = yield* Clock.currentTimeMillis
        const last = touched.get(grant.value.tokenId) ?? 0
        if (at - last > TOUCH_EVERY_MILLIS) {
          touched.set(grant.value.tokenId, at)
          yield* repo.touch(grant.value.tokenId, new Date(at)).pipe(Effect.forkDaemon)
        }
      }
      return grant
    })

    return { create, list, revoke, authenticate } as const
  })
}) {}
