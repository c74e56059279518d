import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { Role } from "../Capability.js"
import { NullableDateTimeField } from "../ModelFields.js"
import { Name } from "../Name.js"
import { ApiTokenId, UserId, WorkspaceId } from "./Ids.js"

/** The prefix of every workspace API token, so scanners and the middleware recognise one. */
export const API_TOKEN_PREFIX = "pat_"

/**
 * A workspace automation token, used as `Authorization: Bearer pat_…` on the
 * authenticated routes with its own role. Only a hash of the value is
 * stored; `hint` (the prefix and the first characters) tells tokens apart.
 */
export class ApiToken extends Model.Class<ApiToken>("ApiToken")({
  id: Model.Generated(ApiTokenId),
  workspaceId: Model.FieldExcept("jsonCreate", "jsonUpdate")(WorkspaceId),
  name: Name,
  /** The token's role; at most the creator's, and `owner` only when an owner creates it. */
  role: Role,
  /** `pat_` and the first 6 characters of the secret, e.g. `pat_x7Kq2M`: enough to recognise, useless to guess. */
  hint: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.String.pipe(Schema.maxLength(16))),
  tokenHash: Model.Sensitive(Schema.String),
  /** Who created it; null when that user is gone. */
  createdBy: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.NullOr(UserId)),
  createdAt: Model.DateTimeInsertFromDate,
  /** When it last authenticated a request (updated at most once a minute). */
  lastUsedAt: NullableDateTimeField,
  /** When it stops working; null for never. */
  expiresAt: Model.Field({
    select: Schema.NullOr(Model.DateTimeFromDate),
    insert: Schema.NullOr(Model.DateTimeFromDate),
    json: Schema.NullOr(Schema.DateTimeUtc),
    jsonCreate: Schema.optionalWith(Schema.NullOr(Schema.DateTimeUtc), { default: () => null })
  })
}) {}

/**
 * A new token: name, role and an optional expiry (an ISO 8601 date-time in
 * the future, at most a year away; absent or null for none). Unknown fields
 * are refused.
 */
export const ApiTokenCreate = ApiToken.jsonCreate.annotations({
  identifier: "ApiTokenCreate",
  parseOptions: { onExcessProperty: "error" },
  examples: [{ name: "Customer support", role: "viewer", expiresAt: null } as never]
})

/** A token just created, with its value: shown this once, never again. */
export const ApiTokenCreated = Schema.Struct({
  ...ApiToken.json.fields,
  /** The secret, `pat_` followed by 43 base64url characters (256 bits). */
  token: Schema.Redacted(Schema.String)
}).annotations({ identifier: "ApiTokenCreated" })

/** No API token with this id exists in the current workspace. */
export class ApiTokenNotFound extends Schema.TaggedError<ApiTokenNotFound>()(
  "ApiTokenNotFound",
  { tokenId: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}

/** Another API token of the workspace already has this name. */
export class ApiTokenNameTaken extends Schema.TaggedError<ApiTokenNameTaken>()(
  "ApiTokenNameTaken",
  { name: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}
