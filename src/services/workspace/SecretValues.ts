/**
 * The server-side side of the vault: what tools, LLM providers and channels
 * use to read a secret's value at the moment they need it. Nothing that
 * answers a client may call it. Every read is counted on the secret
 * (`lastUsedAt`, `lastUsedBy`) and audited (who, which resource, when).
 *
 * A port: the vault (`Vault`) provides it; a test provides its own map.
 */
import { Context, type Effect, type Redacted } from "effect"
import type { AuditActor } from "../../domain/identity/Actor.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { SecretName } from "../../domain/workspace/Ids.js"
import type { ResourceRef } from "../../domain/workspace/ResourceRef.js"
import type { SecretReferenceMissing } from "../../domain/workspace/Secret.js"

/** One read of a secret: whose vault, which secret, what reads it and on whose behalf. */
export interface SecretUse {
  readonly workspaceId: WorkspaceId
  readonly name: SecretName
  /** The resource whose run reads the value: the tool, the settings, the channel. */
  readonly usedBy: ResourceRef
  /** Who caused the run: the user trying a tool, or Parley itself for an end user's turn. */
  readonly actor: AuditActor
}

export class SecretValues extends Context.Tag("parley/services/workspace/SecretValues")<SecretValues, {
  /** The current value of a secret; `SecretReferenceMissing` when the workspace's vault has no such name. */
  readonly reveal: (use: SecretUse) => Effect.Effect<Redacted.Redacted<string>, SecretReferenceMissing>
  /** Which of these names the workspace's vault does not hold (empty when all exist): a definition's check. */
  readonly missing: (
    workspaceId: WorkspaceId,
    names: ReadonlyArray<SecretName>
  ) => Effect.Effect<ReadonlyArray<SecretName>>
}>() {}
