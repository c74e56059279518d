/**
 * Workspaces and their members. Owner rules: only an owner grants the owner
 * role or changes or removes another owner, and a workspace always keeps at
 * least one owner. Role changes reach every node at once (announced), so a
 * demoted member loses access on their next request, and the API tokens they
 * made never keep more than they have.
 */
import { SqlClient } from "@effect/sql"
import { Clock, DateTime, Effect, Option } from "effect"
import { v7 as uuidv7 } from "uuid"
import { type Role, rolesAbove } from "../../domain/Capability.js"
import type { UserId, WorkspaceId } from "../../domain/identity/Ids.js"
import { LastOwner, MemberNotFound } from "../../domain/identity/Membership.js"
import type { Origin } from "../../domain/identity/Origin.js"
import { OwnerOnly } from "../../domain/identity/OwnerOnly.js"
import { actorOf, type Principal } from "../../domain/identity/Principal.js"
import { type WorkspaceMembership, WorkspaceSlugTaken } from "../../domain/identity/Workspace.js"
import { type ListParams, pageOf } from "../../domain/Pagination.js"
import { ApiTokenRepo } from "../../persistence/identity/ApiTokenRepo.js"
import { toWorkspace, WorkspaceRepo } from "../../persistence/identity/WorkspaceRepo.js"
import { transaction } from "../../persistence/Transaction.js"
import { AuditLog } from "../AuditLog.js"
import { IdentityDirectory } from "./IdentityDirectory.js"

/** One page of a list held in memory (memberships and members are few per workspace). */
export const pageFrom = <A>(all: ReadonlyArray<A>, params: ListParams) => {
  const { limit, offset } = pageOf(params)
  return { items: all.slice(offset, offset + limit), total: all.length, limit, offset }
}

export class Workspaces extends Effect.Service<Workspaces>()("parley/services/identity/Workspaces", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const repo = yield* WorkspaceRepo
    const log = yield* AuditLog
    const directory = yield* IdentityDirectory
    const tokens = yield* ApiTokenRepo

    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    /** Record a write in the principal's workspace. */
    const record = (principal: Principal, origin: Origin, entry: {
      action: string
      resourceType: string
      resourceId: string | null
      summary: { before: Record<string, unknown> | null; after: Record<string, unknown> | null }
      workspaceId?: WorkspaceId
    }) =>
      log.append({
        workspaceId: entry.workspaceId ?? principal.workspaceId,
        actor: actorOf(principal),
        actorDisplay: principal.displayName,
        action: entry.action,
        resourceType: entry.resourceType,
        resourceId: entry.resourceId,
        summary: entry.summary,
        traceId: origin.traceId,
        ipAddress: origin.ipAddress,
        userAgent: origin.userAgent
      })

    /** The workspaces of a user, with their role. */
    const listOf = Effect.fn("Workspaces.listOf")(function*(userId: UserId, params: ListParams) {
      return pageFrom(yield* repo.membershipsOf(userId), params)
    })

    /** A new workspace, owned by the user who creates it. */
    const create = Effect.fn("Workspaces.create")(
      function*(principal: Principal, userId: UserId, input: { name: string; slug: string }, origin: Origin) {
        const at = yield* now
        const workspaceId = uuidv7() as WorkspaceId
        const row = { id: workspaceId, slug: input.slug, name: input.name, createdAt: at, updatedAt: at }
        if (Option.isNone(yield* repo.insert(row))) {
          return yield* new WorkspaceSlugTaken({ slug: input.slug, message: `The slug ${input.slug} is taken` })
        }
        yield* repo.addMember({ workspaceId, userId, role: "owner", invitedBy: null, now: at })
        yield* directory.announce({ kind: "user", id: userId })
        yield* record(principal, origin, {
          workspaceId,
          action: "workspace.created",
          resourceType: "workspace",
          resourceId: workspaceId,
          summary: { before: null, after: { name: input.name, slug: input.slug } }
        })
        return {
          workspace: toWorkspace(row),
          role: "owner",
          joinedAt: DateTime.unsafeFromDate(at)
        } satisfies WorkspaceMembership
      },
      transactional
    )

    /** The members of the principal's workspace. */
    const members = Effect.fn("Workspaces.members")(function*(workspaceId: WorkspaceId, params: ListParams) {
      return pageFrom(yield* repo.members(workspaceId), params)
    })

    const ownersAfter = (roles: ReadonlyArray<{ userId: UserId; role: Role }>, userId: UserId, role: Role | null) =>
      roles.filter((member) => (member.userId === userId ? role : member.role) === "owner").length

    /** Change a member's role under the owner rules. */
    const changeRole = Effect.fn("Workspaces.changeRole")(
      function*(principal: Principal, userId: UserId, role: Role, origin: Origin) {
        const roles = yield* repo.lockRoles(principal.workspaceId)
        const target = roles.find((member) => member.userId === userId)
        if (target === undefined) {
          return yield* new MemberNotFound({ userId, message: "No such member in this workspace" })
        }
        if (principal.role !== "owner" && (role === "owner" || target.role === "owner")) {
          return yield* new OwnerOnly({
            action: role === "owner" ? "grant-owner" : "change-owner",
            message: "Only an owner may grant the owner role or change an owner's role"
          })
        }
        if (ownersAfter(roles, userId, role) === 0) {
          return yield* new LastOwner({
            userId,
            message: "The workspace must keep an owner: make someone else owner first"
          })
        }
        const at = yield* now
        yield* repo.setRole(principal.workspaceId, userId, role, at)
        yield* directory.announce({ kind: "user", id: userId })
        yield* record(principal, origin, {
          action: "member.role.changed",
          resourceType: "member",
          resourceId: userId,
          summary: { before: { role: target.role }, after: { role } }
        })
        yield* revokeTokensOf(principal, origin, userId, at, rolesAbove(role), "creator-role-lowered")
        const updated = (yield* repo.members(principal.workspaceId)).find((member) => member.userId === userId)
        return updated!
      },
      transactional
    )

    /**
     * A member's API tokens never outlast their own access: when they leave or
     * are removed, the tokens they created in the workspace are revoked; when
     * their role is lowered, those whose role is now above theirs are.
     */
    const revokeTokensOf = (
      principal: Principal,
      origin: Origin,
      userId: UserId,
      at: Date,
      roles: ReadonlyArray<Role> | undefined,
      reason: string
    ) =>
      Effect.gen(function*() {
        const revoked = yield* tokens.revokeCreatedBy(
          userId,
          at,
          roles === undefined ? { workspaceId: principal.workspaceId } : { workspaceId: principal.workspaceId, roles }
        )
        yield* directory.announce(...revoked.map((token) => ({ kind: "token", id: token.id }) as const))
        yield* Effect.forEach(revoked, (token) =>
          record(principal, origin, {
            action: "api-token.revoked",
            resourceType: "api-token",
            resourceId: token.id,
            summary: { before: { name: token.name, role: token.role }, after: { reason } }
          }), { discard: true })
      })

    /** Remove a member (or leave, for oneself) under the owner rules. */
    const remove = Effect.fn("Workspaces.remove")(function*(principal: Principal, userId: UserId, origin: Origin) {
      const roles = yield* repo.lockRoles(principal.workspaceId)
      const target = roles.find((member) => member.userId === userId)
      if (target === undefined) {
        return yield* new MemberNotFound({ userId, message: "No such member in this workspace" })
      }
      if (principal.role !== "owner" && target.role === "owner") {
        return yield* new OwnerOnly({ action: "remove-owner", message: "Only an owner may remove an owner" })
      }
      if (ownersAfter(roles, userId, null) === 0) {
        return yield* new LastOwner({ userId, message: "The last owner cannot leave: make someone else owner first" })
      }
      yield* repo.removeMember(principal.workspaceId, userId)
      yield* directory.announce({ kind: "user", id: userId })
      yield* record(principal, origin, {
        action: "member.removed",
        resourceType: "member",
        resourceId: userId,
        summary: { before: { role: target.role }, after: null }
      })
      yield* revokeTokensOf(principal, origin, userId, yield* now, undefined, "creator-removed")
    }, transactional)

    return { listOf, create, members, changeRole, remove, record } as const
  })
}) {}
