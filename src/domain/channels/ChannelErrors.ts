import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { SecretName } from "../workspace/Ids.js"
import { ChannelTarget } from "./ChannelTarget.js"
import { ChannelStatus } from "./ConnectionFields.js"
import { ChannelConnectionId, ChannelKind } from "./Ids.js"

/** No connection with this id exists in the current workspace (publicly: none of this kind). */
export class ChannelConnectionNotFound extends Schema.TaggedError<ChannelConnectionNotFound>()(
  "ChannelConnectionNotFound",
  { connectionId: ChannelConnectionId, message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}

/** Another connection of the workspace already has this name. */
export class ChannelConnectionNameTaken extends Schema.TaggedError<ChannelConnectionNameTaken>()(
  "ChannelConnectionNameTaken",
  { name: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}

/** A PATCH named another kind than the connection's: a connection never changes kind. */
export class ChannelKindMismatch extends Schema.TaggedError<ChannelKindMismatch>()(
  "ChannelKindMismatch",
  { connectionId: ChannelConnectionId, kind: ChannelKind, requested: ChannelKind, message: Schema.String },
  HttpApiSchema.annotations({ status: 400 })
) {}

/** The target cannot answer: no such deployment or agent, a revoked deployment, or an agent with no live version. */
export class ChannelTargetUnavailable extends Schema.TaggedError<ChannelTargetUnavailable>()(
  "ChannelTargetUnavailable",
  { target: ChannelTarget, reason: Schema.Literal("not-found", "revoked", "not-live"), message: Schema.String },
  HttpApiSchema.annotations({ status: 400 })
) {}

/** The credentials name secrets the vault does not hold. */
export class ChannelSecretsMissing extends Schema.TaggedError<ChannelSecretsMissing>()(
  "ChannelSecretsMissing",
  { secrets: Schema.NonEmptyArray(SecretName), message: Schema.String },
  HttpApiSchema.annotations({ status: 400 })
) {}

/** A phone number or sender is already bound to another connection of the workspace. */
export class ChannelAddressTaken extends Schema.TaggedError<ChannelAddressTaken>()(
  "ChannelAddressTaken",
  { address: Schema.String, connectionId: ChannelConnectionId, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}

/** The connection is disabled (or in error with its target gone), so it takes no traffic. */
export class ChannelConnectionInactive extends Schema.TaggedError<ChannelConnectionInactive>()(
  "ChannelConnectionInactive",
  { connectionId: ChannelConnectionId, status: ChannelStatus, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}
