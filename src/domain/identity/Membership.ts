import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { Role } from "../Capability.js"
import { Email } from "./Email.js"
import { UserId, WorkspaceId } from "./Ids.js"
import { DisplayName } from "./User.js"

/** That a user belongs to a workspace, and with which role (one row per pair). */
export class Membership extends Model.Class<Membership>("Membership")({
  workspaceId: Model.FieldExcept("jsonCreate", "jsonUpdate")(WorkspaceId),
  userId: Model.FieldExcept("jsonCreate", "jsonUpdate")(UserId),
  role: Role,
  /** Who invited the member; null for the workspace's creator or when that user is gone. */
  invitedBy: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.NullOr(UserId)),
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate
}) {}

/** A member of the current workspace as its administrators see them. */
export const Member = Schema.Struct({
  userId: UserId,
  email: Email,
  displayName: DisplayName,
  role: Role,
  emailVerified: Schema.Boolean,
  mfaEnabled: Schema.Boolean,
  joinedAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}).annotations({ identifier: "Member" })
export type Member = typeof Member.Type

/** A member's new role; unknown fields are refused. */
export const MemberRoleChange = Schema.Struct({
  role: Role
}).annotations({ identifier: "MemberRoleChange", parseOptions: { onExcessProperty: "error" } })

/** The user is not a member of the current workspace. */
export class MemberNotFound extends Schema.TaggedError<MemberNotFound>()(
  "MemberNotFound",
  { userId: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}

/**
 * The change would leave the workspace without an owner (removing or
 * demoting its last one); make another member owner first.
 */
export class LastOwner extends Schema.TaggedError<LastOwner>()(
  "LastOwner",
  { userId: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}
