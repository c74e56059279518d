/**
 * Which resources refer to which vault secrets, kept by the writers of those
 * resources (a workspace tool's headers, the agent LLM settings' key, the
 * agent-ops handoff webhook) in the same transaction as their own write, so
 * the vault can refuse to delete a secret still in use and name its users.
 *
 * A port: the vault provides it over its `secret_references` table.
 */
import { Context, type Effect } from "effect"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { SecretName } from "../../domain/workspace/Ids.js"
import type { ResourceRef } from "../../domain/workspace/ResourceRef.js"

export class SecretReferences extends Context.Tag("parley/services/workspace/SecretReferences")<SecretReferences, {
  /**
   * Record that `resource` refers to exactly these secret names now (replacing
   * what it referred to before; an empty list when the resource is deleted).
   * Call it inside the transaction that writes the resource.
   */
  readonly replace: (
    workspaceId: WorkspaceId,
    resource: ResourceRef,
    names: ReadonlyArray<SecretName>
  ) => Effect.Effect<void>
  /** The resources that refer to this secret name, in a stable order. */
  readonly usersOf: (workspaceId: WorkspaceId, name: SecretName) => Effect.Effect<ReadonlyArray<ResourceRef>>
}>() {}
