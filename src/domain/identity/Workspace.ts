import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { Role } from "../Capability.js"
import { Name } from "../Name.js"
import { Slug } from "../Slug.js"
import { WorkspaceId } from "./Ids.js"

/**
 * A workspace: the unit of ownership, membership and billing. Its slug is
 * unique across the server, because public chain ingress addresses it
 * (`/v1/public/workflow-chains/{workspace_slug}/...`).
 */
export class Workspace extends Model.Class<Workspace>("Workspace")({
  id: Model.Generated(WorkspaceId),
  name: Name,
  slug: Slug,
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate
}) {}

/** The fields of a new workspace; the caller becomes its owner. Unknown fields are refused. */
export const WorkspaceCreate = Workspace.jsonCreate.annotations({
  identifier: "WorkspaceCreate",
  parseOptions: { onExcessProperty: "error" }
})

/** One of the caller's workspaces, with the role they hold in it. */
export const WorkspaceMembership = Schema.Struct({
  workspace: Workspace.json,
  role: Role,
  joinedAt: Schema.DateTimeUtc
}).annotations({ identifier: "WorkspaceMembership" })
export type WorkspaceMembership = typeof WorkspaceMembership.Type

/** Another workspace already has this slug. */
export class WorkspaceSlugTaken extends Schema.TaggedError<WorkspaceSlugTaken>()(
  "WorkspaceSlugTaken",
  { slug: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}
