import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/**
 * What only an owner may do: grant the owner role (by a role change, an
 * invitation or an API token), or change or remove another owner.
 */
export const OwnerOnlyAction = Schema.Literal("grant-owner", "change-owner", "remove-owner")
export type OwnerOnlyAction = typeof OwnerOnlyAction.Type

/**
 * The caller holds `member.manage` or `token.manage` (an admin) but the change
 * touches the owner role, which only an owner may grant or take away.
 */
export class OwnerOnly extends Schema.TaggedError<OwnerOnly>()(
  "OwnerOnly",
  { action: OwnerOnlyAction, message: Schema.String },
  HttpApiSchema.annotations({ status: 403 })
) {}
