/**
 * The vault from a test's side: payloads for the typed client, and the
 * server-side ports (`SecretValues`, `SecretReferences`) over the test
 * server's database with its master key, as tools and providers use them.
 */
import { Layer, Schema } from "effect"
import { SecretCreate, SecretRotate } from "../../src/domain/workspace/Secret.js"
import { AuditLog } from "../../src/services/AuditLog.js"
import { MasterKey } from "../../src/services/MasterKey.js"
import { VaultLive } from "../../src/services/workspace/VaultLive.js"
import { configFrom, TEST_MASTER_KEY } from "./TestServer.js"

/** A create payload, as the typed client takes it. */
export const secretCreate = (name: string, value: string, description?: string) =>
  Schema.decodeUnknownSync(SecretCreate)(description === undefined ? { name, value } : { name, value, description })

/** A rotate payload, as the typed client takes it. */
export const secretRotate = (value: string, expectedVersion?: number) =>
  Schema.decodeUnknownSync(SecretRotate)(expectedVersion === undefined ? { value } : { value, expectedVersion })

/** The vault and its ports on the test server's database (which the test's context gives), under its master key. */
export const vaultPorts = (settings: Record<string, string> = { PARLEY_MASTER_KEY: TEST_MASTER_KEY }) =>
  VaultLive.pipe(
    Layer.provide([AuditLog.Default, MasterKey.Default]),
    Layer.provide(Layer.setConfigProvider(configFrom(settings)))
  )

/** A fresh value, long enough for a masked hint and unique enough to be searched for. */
export const freshValue = (label: string) => `sk-${label}-${crypto.randomUUID()}`
