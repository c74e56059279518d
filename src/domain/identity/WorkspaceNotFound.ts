import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/** The workspace named by `X-Workspace-Id` does not exist or the caller is not a member of it. */
export class WorkspaceNotFound extends Schema.TaggedError<WorkspaceNotFound>()(
  "WorkspaceNotFound",
  { workspaceId: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}
