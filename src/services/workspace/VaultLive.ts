/**
 * The vault with the two ports it serves: `SecretValues` (server-side reads
 * of values) and `SecretReferences` (which resources name which secret).
 */
import { Effect, Layer } from "effect"
import { SecretReferences } from "./SecretReferences.js"
import { SecretValues } from "./SecretValues.js"
import { Vault } from "./Vault.js"

/** `SecretValues` over the vault. */
export const VaultSecretValues = Layer.effect(
  SecretValues,
  Effect.map(Vault, (vault) => SecretValues.of({ reveal: vault.reveal, missing: vault.missing }))
)

/** `SecretReferences` over the vault's `secret_references` table. */
export const VaultSecretReferences = Layer.effect(
  SecretReferences,
  Effect.map(Vault, (vault) => SecretReferences.of({ replace: vault.replaceReferences, usersOf: vault.usersOf }))
)

/** `Vault`, `SecretValues` and `SecretReferences`; needs the database, the `AuditLog` and the `MasterKey`. */
export const VaultLive = Layer.mergeAll(VaultSecretValues, VaultSecretReferences).pipe(
  Layer.provideMerge(Vault.Default)
)
