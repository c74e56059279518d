import { SqlClient, SqlSchema } from "@effect/sql"
import { DateTime, Effect, Option, Schema } from "effect"
import { Role } from "../../domain/Capability.js"
import type { Email } from "../../domain/identity/Email.js"
import { UserId, WorkspaceId } from "../../domain/identity/Ids.js"
import type { Member } from "../../domain/identity/Membership.js"
import { Workspace, type WorkspaceMembership } from "../../domain/identity/Workspace.js"

/** A `workspaces` row. */
export const WorkspaceRow = Schema.Struct({
  id: WorkspaceId,
  slug: Schema.String,
  name: Schema.String,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type WorkspaceRow = typeof WorkspaceRow.Type

const MembershipRow = Schema.Struct({
  ...WorkspaceRow.fields,
  role: Role,
  joinedAt: Schema.DateFromSelf
})

const MemberRow = Schema.Struct({
  userId: UserId,
  email: Schema.String,
  displayName: Schema.String,
  role: Role,
  emailVerifiedAt: Schema.NullOr(Schema.DateFromSelf),
  mfaEnabledAt: Schema.NullOr(Schema.DateFromSelf),
  joinedAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})

/** The workspace as the API shows it. */
export const toWorkspace = (row: WorkspaceRow): Workspace =>
  Workspace.make({
    id: row.id,
    slug: row.slug,
    name: row.name,
    createdAt: DateTime.unsafeFromDate(row.createdAt),
    updatedAt: DateTime.unsafeFromDate(row.updatedAt)
  })

/** Workspaces and who is in them with which role. */
export class WorkspaceRepo extends Effect.Service<WorkspaceRepo>()("parley/persistence/WorkspaceRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const membershipsOf = SqlSchema.findAll({
      Request: UserId,
      Result: MembershipRow,
      execute: (userId) =>
        sql`SELECT w.*, m.role, m.created_at AS joined_at FROM memberships m
            JOIN workspaces w ON w.id = m.workspace_id
            WHERE m.user_id = ${userId} ORDER BY m.created_at, w.id`
    })
    const members = SqlSchema.findAll({
      Request: WorkspaceId,
      Result: MemberRow,
      execute: (workspaceId) =>
        sql`SELECT u.id AS user_id, u.email, u.display_name, m.role, u.email_verified_at, u.mfa_enabled_at,
              m.created_at AS joined_at, m.updated_at
            FROM memberships m JOIN users u ON u.id = m.user_id
            WHERE m.workspace_id = ${workspaceId} ORDER BY m.created_at, u.id`
    })
    const byId = SqlSchema.findOne({
      Request: WorkspaceId,
      Result: WorkspaceRow,
      execute: (id) => sql`SELECT * FROM workspaces WHERE id = ${id}`
    })

    /** Insert a workspace; `None` when the slug is taken. */
    const insert = (row: WorkspaceRow) =>
      sql<{ id: string }>`INSERT INTO workspaces ${sql.insert(row)} ON CONFLICT (slug) DO NOTHING RETURNING id`.pipe(
        Effect.map((rows) => rows.length === 1 ? Option.some(row.id) : Option.none())
      )

    /** The first free slug among `base`, `base-2`, `base-3`, … */
    const freeSlug = (base: string) =>
      sql<{ slug: string }>`SELECT slug FROM workspaces WHERE slug = ${base} OR slug LIKE ${`${base}-%`}`.pipe(
        Effect.map((rows) => {
          const taken = new Set(rows.map((row) => row.slug))
          let candidate = base
          for (let n = 2; taken.has(candidate); n++) candidate = `${base.slice(0, 58)}-${n}`
          return candidate
        })
      )

    return {
      findById: (id: WorkspaceId) => byId(id).pipe(Effect.orDie, Effect.withSpan("WorkspaceRepo.findById")),
      /** Every workspace's id (operator commands that concern the whole installation). */
      allIds: () =>
        sql<{ id: WorkspaceId }>`SELECT id FROM workspaces ORDER BY id`.pipe(
          Effect.map((rows) => rows.map((row) => row.id)),
          Effect.orDie,
          Effect.withSpan("WorkspaceRepo.allIds")
        ),
      /** The user's workspaces with their role, oldest membership first. */
      membershipsOf: (userId: UserId) =>
        membershipsOf(userId).pipe(
          Effect.map((rows) =>
            rows.map((row): WorkspaceMembership => ({
              workspace: toWorkspace(row),
              role: row.role,
              joinedAt: DateTime.unsafeFromDate(row.joinedAt)
            }))
          ),
          Effect.orDie,
          Effect.withSpan("WorkspaceRepo.membershipsOf")
        ),
      members: (workspaceId: WorkspaceId) =>
        members(workspaceId).pipe(
          Effect.map((rows) =>
            rows.map((row): Member => ({
              userId: row.userId,
              email: row.email as Email,
              displayName: row.displayName,
              role: row.role,
              emailVerified: row.emailVerifiedAt !== null,
              mfaEnabled: row.mfaEnabledAt !== null,
              joinedAt: DateTime.unsafeFromDate(row.joinedAt),
              updatedAt: DateTime.unsafeFromDate(row.updatedAt)
            }))
          ),
          Effect.orDie,
          Effect.withSpan("WorkspaceRepo.members")
        ),
      insert: (row: WorkspaceRow) => insert(row).pipe(Effect.orDie, Effect.withSpan("WorkspaceRepo.insert")),
      freeSlug: (base: string) => freeSlug(base).pipe(Effect.orDie, Effect.withSpan("WorkspaceRepo.freeSlug")),
      /** Add a member; false when they already are one. */
      addMember: (row: { workspaceId: WorkspaceId; userId: UserId; role: Role; invitedBy: UserId | null; now: Date }) =>
        sql<{ userId: string }>`
          INSERT INTO memberships ${
          sql.insert({
            workspaceId: row.workspaceId,
            userId: row.userId,
            role: row.role,
            invitedBy: row.invitedBy,
            createdAt: row.now,
            updatedAt: row.now
          })
        }
          ON CONFLICT (workspace_id, user_id) DO NOTHING RETURNING user_id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie,
          Effect.withSpan("WorkspaceRepo.addMember")
        ),
      /** The members of a workspace with their roles, locked until the transaction ends (owner rules race otherwise). */
      lockRoles: (workspaceId: WorkspaceId) =>
        sql<{ userId: UserId; role: Role }>`
          SELECT user_id, role FROM memberships WHERE workspace_id = ${workspaceId} FOR UPDATE`.pipe(
          Effect.orDie,
          Effect.withSpan("WorkspaceRepo.lockRoles")
        ),
      setRole: (workspaceId: WorkspaceId, userId: UserId, role: Role, now: Date) =>
        sql`UPDATE memberships SET role = ${role}, updated_at = ${now}
            WHERE workspace_id = ${workspaceId} AND user_id = ${userId}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("WorkspaceRepo.setRole")
        ),
      removeMember: (workspaceId: WorkspaceId, userId: UserId) =>
        sql`DELETE FROM memberships WHERE workspace_id = ${workspaceId} AND user_id = ${userId}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("WorkspaceRepo.removeMember")
        )
    } as const
  })
}) {}
