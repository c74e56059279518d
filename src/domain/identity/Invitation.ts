import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { Role } from "../Capability.js"
import { DateTimeField } from "../ModelFields.js"
import { Email } from "./Email.js"
import { UserId, WorkspaceId } from "./Ids.js"
import { OpaqueToken } from "./OneTimeToken.js"

/** An invitation to join a workspace. */
export const InvitationId = Schema.UUID.pipe(Schema.brand("InvitationId"))
export type InvitationId = typeof InvitationId.Type

/** How long an invitation link works, in seconds (7 days). */
export const INVITATION_TTL_SECONDS = 604_800

/**
 * An invitation mailed to an address, with the role the invitee will get.
 * The link's token is stored only as a hash. Accepting or revoking deletes
 * the invitation (the audit log keeps the history); inviting an address that
 * already has one replaces it and mails a new link.
 */
export class Invitation extends Model.Class<Invitation>("Invitation")({
  id: Model.Generated(InvitationId),
  workspaceId: Model.FieldExcept("jsonCreate", "jsonUpdate")(WorkspaceId),
  email: Email,
  role: Role,
  tokenHash: Model.Sensitive(Schema.String),
  /** Who sent it; null when that user is gone. */
  invitedBy: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.NullOr(UserId)),
  expiresAt: DateTimeField,
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate
}) {}

/** The address to invite and the role to give; unknown fields are refused. */
export const InvitationCreate = Invitation.jsonCreate.annotations({
  identifier: "InvitationCreate",
  parseOptions: { onExcessProperty: "error" }
})

/** Accept an invitation with the token from its mail. */
export const InvitationAccept = Schema.Struct({
  token: OpaqueToken
}).annotations({ identifier: "InvitationAccept", parseOptions: { onExcessProperty: "error" } })

/** No pending invitation with this id in the current workspace. */
export class InvitationNotFound extends Schema.TaggedError<InvitationNotFound>()(
  "InvitationNotFound",
  { invitationId: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}

/** The address already belongs to a member of the workspace. */
export class AlreadyMember extends Schema.TaggedError<AlreadyMember>()(
  "AlreadyMember",
  { email: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}

/**
 * The invitation was sent to another address than the signed-in user's;
 * sign in as the invited address (or sign up with it) to accept.
 */
export class InvitationEmailMismatch extends Schema.TaggedError<InvitationEmailMismatch>()(
  "InvitationEmailMismatch",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 403 })
) {}
