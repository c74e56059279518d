/**
 * Invitations to a workspace: an admin invites an address with a role; the
 * link is mailed; the signed-in user whose email it names accepts it (which
 * also proves they read that mailbox, so it counts as verifying it). A new
 * invitation to the same address replaces the old link.
 */
import { SqlClient } from "@effect/sql"
import { Clock, DateTime, Effect, Option, Redacted } from "effect"
import { v7 as uuidv7 } from "uuid"
import { MailLinkUrl } from "../../config/Settings.js"
import type { Role } from "../../domain/Capability.js"
import type { Email } from "../../domain/identity/Email.js"
import { invitationEmail } from "../../domain/identity/Emails.js"
import type { UserId } from "../../domain/identity/Ids.js"
import {
  AlreadyMember,
  INVITATION_TTL_SECONDS,
  InvitationEmailMismatch,
  type InvitationId,
  InvitationNotFound
} from "../../domain/identity/Invitation.js"
import { InvalidToken, TokenExpired } from "../../domain/identity/OneTimeToken.js"
import type { Origin } from "../../domain/identity/Origin.js"
import { OwnerOnly } from "../../domain/identity/OwnerOnly.js"
import type { Principal } from "../../domain/identity/Principal.js"
import type { WorkspaceMembership } from "../../domain/identity/Workspace.js"
import type { ListParams } from "../../domain/Pagination.js"
import { InvitationRepo, toInvitation } from "../../persistence/identity/InvitationRepo.js"
import { UserRepo } from "../../persistence/identity/UserRepo.js"
import { toWorkspace, WorkspaceRepo } from "../../persistence/identity/WorkspaceRepo.js"
import { transaction } from "../../persistence/Transaction.js"
import { Mailer } from "../../providers/Mailer.js"
import { generateToken, hashToken } from "../OpaqueTokens.js"
import { IdentityDirectory } from "./IdentityDirectory.js"
import { pageFrom, Workspaces } from "./Workspaces.js"

export class Invitations extends Effect.Service<Invitations>()("parley/services/identity/Invitations", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const repo = yield* InvitationRepo
    const workspaces = yield* WorkspaceRepo
    const users = yield* UserRepo
    const members = yield* Workspaces
    const directory = yield* IdentityDirectory
    const mailer = yield* Mailer
    const publicUrl = yield* MailLinkUrl

    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    /** Invite an address to the principal's workspace; the link is mailed. */
    const invite = Effect.fn("Invitations.invite")(
      function*(principal: Principal, input: { email: Email; role: Role }, origin: Origin) {
        if (input.role === "owner" && principal.role !== "owner") {
          return yield* new OwnerOnly({ action: "grant-owner", message: "Only an owner may invite an owner" })
        }
        const created = yield* Effect.gen(function*() {
          const at = yield* now
          const current = yield* workspaces.members(principal.workspaceId)
          if (current.some((member) => member.email === input.email)) {
            return yield* new AlreadyMember({ email: input.email, message: "This address is already a member" })
          }
          const token = generateToken()
          const row = yield* repo.upsert({
            id: uuidv7() as InvitationId,
            workspaceId: principal.workspaceId,
            email: input.email,
            role: input.role,
            tokenHash: hashToken(token),
            invitedBy: principal._tag === "User" ? principal.userId : null,
            expiresAt: new Date(at.getTime() + INVITATION_TTL_SECONDS * 1000),
            createdAt: at,
            updatedAt: at
          })
          yield* members.record(principal, origin, {
            action: "invitation.created",
            resourceType: "invitation",
            resourceId: row.id,
            summary: { before: null, after: { email: input.email, role: input.role } }
          })
          const workspace = Option.getOrThrow(yield* workspaces.findById(principal.workspaceId))
          return { row, token, workspaceName: workspace.name }
        }).pipe(transactional)
        yield* mailer.send(invitationEmail({
          to: input.email,
          workspaceName: created.workspaceName,
          inviterName: principal.displayName,
          role: input.role,
          token: created.token,
          publicUrl
        })).pipe(
          Effect.catchAll(() => Effect.logWarning("Invitation mail not sent")),
          Effect.forkDaemon
        )
        return toInvitation(created.row)
      }
    )

    /** The workspace's pending invitations (expired ones too: compare `expiresAt`). */
    const list = Effect.fn("Invitations.list")(function*(principal: Principal, params: ListParams) {
      return pageFrom((yield* repo.list(principal.workspaceId)).map(toInvitation), params)
    })

    /** Withdraw an invitation: its link stops working. */
    const revoke = Effect.fn("Invitations.revoke")(function*(principal: Principal, id: InvitationId, origin: Origin) {
      if (!(yield* repo.delete(principal.workspaceId, id))) {
        return yield* new InvitationNotFound({ invitationId: id, message: "No such invitation in this workspace" })
      }
      yield* members.record(principal, origin, {
        action: "invitation.revoked",
        resourceType: "invitation",
        resourceId: id,
        summary: { before: null, after: null }
      })
    }, transactional)

    /** Accept an invitation as the signed-in user its email names. */
    const accept = Effect.fn("Invitations.accept")(
      function*(principal: Principal, userId: UserId, token: Redacted.Redacted<string>, origin: Origin) {
        const at = yield* now
        const invitation = yield* repo.lockByToken(hashToken(Redacted.value(token)))
        if (Option.isNone(invitation)) {
          return yield* new InvalidToken({ purpose: "invitation", message: "This invitation is not valid" })
        }
        if (invitation.value.expiresAt <= at) {
          return yield* new TokenExpired({
            purpose: "invitation",
            message: "This invitation has expired; ask for a new one"
          })
        }
        const user = Option.getOrThrow(yield* users.findById(userId))
        if (user.email !== invitation.value.email) {
          return yield* new InvitationEmailMismatch({
            message: "This invitation is for another email address: sign in with that account"
          })
        }
        const { role, workspaceId } = invitation.value
        const added = yield* workspaces.addMember({
          workspaceId,
          userId,
          role,
          invitedBy: invitation.value.invitedBy,
          now: at
        })
        if (!added) return yield* new AlreadyMember({ email: user.email, message: "You are already a member" })
        yield* repo.delete(workspaceId, invitation.value.id)
        if (user.emailVerifiedAt === null) yield* users.update(userId, { emailVerifiedAt: at }, at)
        yield* directory.announce({ kind: "user", id: userId })
        yield* members.record(principal, origin, {
          workspaceId,
          action: "member.added",
          resourceType: "member",
          resourceId: userId,
          summary: { before: null, after: { role, via: "invitation" } }
        })
        const workspace = Option.getOrThrow(yield* workspaces.findById(workspaceId))
        return {
          workspace: toWorkspace(workspace),
          role,
          joinedAt: DateTime.unsafeFromDate(at)
        } satisfies WorkspaceMembership
      },
      transactional
    )

    return { invite, list, revoke, accept } as const
  })
}) {}
