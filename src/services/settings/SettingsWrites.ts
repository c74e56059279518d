/**
 * What every write of workspace settings that names vault secrets does
 * besides its own row: refuse names the vault lacks (a 400 naming them),
 * then record the names the settings now use (so the vault refuses to delete
 * a secret in use) and audit the change with its before and after. Call both
 * inside the settings' own transaction: `requireSecrets` before the write,
 * `recorded` after it.
 */
import { Effect } from "effect"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { Origin } from "../../domain/identity/Origin.js"
import type { Principal } from "../../domain/identity/Principal.js"
import type { SecretName } from "../../domain/workspace/Ids.js"
import type { ResourceRef } from "../../domain/workspace/ResourceRef.js"
import { SecretReferenceMissing } from "../../domain/workspace/Secret.js"
import { AuditLog } from "../AuditLog.js"
import { SecretReferences } from "../workspace/SecretReferences.js"
import { SecretValues } from "../workspace/SecretValues.js"
import { workspaceEntry } from "../WorkspaceAudit.js"

/** One settings write as the audit log and the vault's references see it. */
export interface SettingsWrite {
  readonly workspaceId: WorkspaceId
  /** The settings written, as the vault names a user of a secret. */
  readonly resource: ResourceRef
  /** Every vault name the settings use after the write, each once. */
  readonly names: ReadonlyArray<SecretName>
  readonly action: string
  readonly summary: { readonly before: Record<string, unknown> | null; readonly after: Record<string, unknown> | null }
}

export class SettingsWrites extends Effect.Service<SettingsWrites>()("parley/services/settings/SettingsWrites", {
  effect: Effect.gen(function*() {
    const values = yield* SecretValues
    const references = yield* SecretReferences
    const log = yield* AuditLog

    /** Fails with `SecretReferenceMissing` naming every one of `names` the workspace's vault lacks. */
    const requireSecrets = (workspaceId: WorkspaceId, names: ReadonlyArray<SecretName>) =>
      names.length === 0 ?
        Effect.void :
        Effect.flatMap(values.missing(workspaceId, names), (missing) =>
          missing.length === 0 ? Effect.void : Effect.fail(
            new SecretReferenceMissing({
              names: missing,
              message: `No secret named ${missing.join(", ")} in this workspace's vault: create it first`
            })
          ))

    /** Records the names `write` uses and audits it. */
    const recorded = (principal: Principal, origin: Origin, write: SettingsWrite) =>
      Effect.zipRight(
        references.replace(write.workspaceId, write.resource, write.names),
        log.append(workspaceEntry(principal, origin, {
          action: write.action,
          resourceType: write.resource.kind,
          resourceId: write.resource.id,
          summary: write.summary
        }))
      )

    return { requireSecrets, recorded } as const
  })
}) {}
