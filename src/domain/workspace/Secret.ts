import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { Actor } from "../identity/Actor.js"
import { WorkspaceId } from "../identity/Ids.js"
import { ListParams } from "../Pagination.js"
import { SecretId, SecretName } from "./Ids.js"
import { ResourceRef } from "./ResourceRef.js"

/** The version of a secret's value: 1 at creation, one more at every rotation. */
export const SecretVersion = Schema.Number.pipe(Schema.int(), Schema.positive(), Schema.brand("SecretVersion"))
export type SecretVersion = typeof SecretVersion.Type

/** The largest secret value, in UTF-8 bytes. */
export const MAX_SECRET_BYTES = 16_384

/**
 * A secret's value as a client sends it: 1 byte to 16 KiB of UTF-8. It is
 * decoded into a `Redacted`, so it never prints, and no response carries it.
 */
export const SecretValue = Schema.Redacted(
  Schema.String.pipe(
    Schema.minLength(1),
    Schema.maxLength(MAX_SECRET_BYTES),
    Schema.filter((value) => new TextEncoder().encode(value).length <= MAX_SECRET_BYTES || "at most 16 KiB of UTF-8")
  )
).annotations({
  identifier: "SecretValue",
  description: "Write-only: never returned",
  jsonSchema: { examples: ["sk-example-0123456789abcdef"] }
})

/** The shortest value whose last characters are shown in its hint. */
export const HINT_MIN_LENGTH = 16

/**
 * The masked hint of a value: `••••` and its last 4 characters, or none for
 * values under 16 characters (counted in code points, so a hint never holds
 * half of a character).
 */
export const maskedHint = (value: string): string | null => {
  const characters = Array.from(value)
  return characters.length >= HINT_MIN_LENGTH ? `••••${characters.slice(-4).join("")}` : null
}

const Description = Schema.String.pipe(Schema.maxLength(500))

/**
 * A credential in the workspace vault. The value is encrypted with its own
 * data key (AES-256-GCM), which the master key wraps (stored apart, in
 * `secret_versions`); only the name, version, masked hint and usage ever
 * leave the server.
 */
export class Secret extends Model.Class<Secret>("Secret")({
  id: Model.Generated(SecretId),
  workspaceId: Model.FieldExcept("jsonCreate", "jsonUpdate")(WorkspaceId),
  /** Unique per workspace; tools and settings refer to the secret by it. */
  name: SecretName,
  description: Schema.optionalWith(Description, { default: () => "" }),
  version: Model.FieldExcept("jsonCreate", "jsonUpdate")(SecretVersion),
  maskedHint: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.NullOr(Schema.String.pipe(Schema.maxLength(12)))),
  createdBy: Model.FieldExcept("jsonCreate", "jsonUpdate")(Actor),
  /** Who rotated the value last (the creator until then). */
  updatedBy: Model.FieldExcept("jsonCreate", "jsonUpdate")(Actor),
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate,
  /** When a tool, agent, channel or setting last resolved the value; null when never. */
  lastUsedAt: Model.Field({
    select: Schema.NullOr(Model.DateTimeFromDate),
    insert: Schema.NullOr(Model.DateTimeFromDate),
    update: Schema.NullOr(Model.DateTimeFromDate),
    json: Schema.NullOr(Schema.DateTimeUtc)
  }),
  /** What last resolved the value; null when never. */
  lastUsedBy: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.NullOr(ResourceRef)),
  /** How many times tools, agents, channels or settings resolved the value. */
  useCount: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.Number.pipe(Schema.int(), Schema.nonNegative()))
}) {}

/** A new secret: its name, an optional description and the value (write-only); unknown fields are refused. */
export const SecretCreate = Schema.Struct({
  name: SecretName,
  description: Schema.optionalWith(Description, { default: () => "" }),
  value: SecretValue
}).annotations({ identifier: "SecretCreate", parseOptions: { onExcessProperty: "error" } })

/** A new value for a secret (a rotation), making a new version; unknown fields are refused. */
export const SecretRotate = Schema.Struct({
  value: SecretValue,
  /** The version the client last saw; when given and stale, the rotation is refused (409). */
  expectedVersion: Schema.optional(SecretVersion)
}).annotations({ identifier: "SecretRotate", parseOptions: { onExcessProperty: "error" } })

/** The query of the secret list: pagination and an optional name filter. */
export const SecretListParams = Schema.Struct({
  ...ListParams.fields,
  /** Only secrets whose name contains this text (ignoring case). */
  q: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64)))
})

/** No secret with this id exists in the current workspace. */
export class SecretNotFound extends Schema.TaggedError<SecretNotFound>()(
  "SecretNotFound",
  { secretId: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}

/** Another secret of the workspace already has this name. */
export class SecretNameTaken extends Schema.TaggedError<SecretNameTaken>()(
  "SecretNameTaken",
  { name: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}

/** The secret was rotated since the version the client sent. */
export class SecretVersionConflict extends Schema.TaggedError<SecretVersionConflict>()(
  "SecretVersionConflict",
  { expected: Schema.Number, actual: Schema.Number, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}

/** Tools, agents, channels or settings still refer to the secret; `?force=true` deletes it anyway. */
export class SecretInUse extends Schema.TaggedError<SecretInUse>()(
  "SecretInUse",
  { secretId: Schema.String, usedBy: Schema.Array(ResourceRef), message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}

/** A definition refers to secrets that the workspace vault does not hold. */
export class SecretReferenceMissing extends Schema.TaggedError<SecretReferenceMissing>()(
  "SecretReferenceMissing",
  { names: Schema.Array(Schema.String), message: Schema.String },
  HttpApiSchema.annotations({ status: 400 })
) {}
