import { Model } from "@effect/sql"
import { Schema } from "effect"
import { ListParams } from "../Pagination.js"
import { Sha256Hex } from "../Sha256Hex.js"
import { TraceId } from "../Trace.js"
import { ActorDisplay, AuditActor } from "./Actor.js"
import { IpAddress, UserAgent } from "./ClientInfo.js"
import { WorkspaceId } from "./Ids.js"

/** One entry of a workspace's audit log. */
export const AuditRecordId = Schema.UUID.pipe(Schema.brand("AuditRecordId"))
export type AuditRecordId = typeof AuditRecordId.Type

/** What happened, dotted from the resource to the verb: `auth.login.succeeded`, `member.role.changed`. */
export const AuditAction = Schema.String.pipe(
  Schema.pattern(/^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*){1,4}$/),
  Schema.annotations({ identifier: "AuditAction", examples: ["member.role.changed"] })
)

/** The kind of resource a record is about, as its routes name it: `member`, `api-token`, `ai-agent`. */
export const AuditResourceType = Schema.String.pipe(
  Schema.pattern(/^[a-z][a-z0-9-]{0,63}$/),
  Schema.annotations({ identifier: "AuditResourceType", examples: ["api-token"] })
)

/** A JSON object of the fields a change touched; secrets are left out or masked before it is written. */
const FieldValues = Schema.Record({ key: Schema.String, value: Schema.Unknown })

/** The state of the resource before and after the change (null when it did not exist). */
export const AuditChange = Schema.Struct({
  before: Schema.NullOr(FieldValues),
  after: Schema.NullOr(FieldValues)
}).annotations({ identifier: "AuditChange" })

/**
 * An append-only, hash-chained record of one write (or sign-in) in a
 * workspace. `hash` is SHA-256 over `prevHash` and the canonical JSON of the
 * record's other fields; `prevHash` is the previous record's hash (null for a
 * workspace's first), so an edited, removed or reordered record breaks the chain.
 */
export class AuditRecord extends Model.Class<AuditRecord>("AuditRecord")({
  id: Model.Generated(AuditRecordId),
  workspaceId: WorkspaceId,
  /** The record's position in its workspace's chain, from 1 without gaps. */
  sequence: Schema.Number.pipe(Schema.int(), Schema.positive()),
  /** Who acted: a user (by session or password), an API token, or Parley itself. */
  actor: AuditActor,
  /** The actor's name at the time, so the log reads well after the actor is gone. */
  actorDisplay: ActorDisplay,
  action: AuditAction,
  resourceType: AuditResourceType,
  /** The UUID or slug of the resource, as its routes address it; null for workspace-wide actions. */
  resourceId: Schema.NullOr(Schema.String.pipe(Schema.maxLength(200))),
  summary: AuditChange,
  /** The trace id of the request that made the change. */
  traceId: Schema.NullOr(TraceId),
  ipAddress: Schema.NullOr(IpAddress),
  userAgent: Schema.NullOr(UserAgent),
  occurredAt: Model.DateTimeInsertFromDate,
  prevHash: Schema.NullOr(Sha256Hex),
  hash: Sha256Hex
}) {}

/**
 * The query of the audit log (newest record first): every filter is optional
 * and they combine with AND. No identifier: OpenAPI lists its fields as parameters.
 */
export const AuditQuery = Schema.Struct({
  ...ListParams.fields,
  actor: Schema.optional(
    Schema.Union(Schema.UUID, Schema.Literal("system")).annotations({
      description: "A user id or an API token id, or `system`"
    })
  ),
  action: Schema.optional(
    Schema.String.pipe(
      Schema.pattern(/^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*){0,4}(\.\*)?$/),
      Schema.annotations({
        description: "An exact action (`member.role.changed`) or a prefix ending in `.*` (`member.*`)"
      })
    )
  ),
  resourceType: Schema.optional(
    AuditResourceType.annotations({ description: "The kind of resource, e.g. `api-token`" })
  ),
  resourceId: Schema.optional(
    Schema.String.pipe(
      Schema.minLength(1),
      Schema.maxLength(200),
      Schema.annotations({ description: "The UUID or slug of the resource" })
    )
  ),
  from: Schema.optional(
    Schema.DateTimeUtc.annotations({ description: "Records at or after this instant (ISO 8601)" })
  ),
  to: Schema.optional(
    Schema.DateTimeUtc.annotations({ description: "Records before this instant (ISO 8601); not before `from`" })
  )
})
export type AuditQuery = typeof AuditQuery.Type
