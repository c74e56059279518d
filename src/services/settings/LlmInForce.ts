/**
 * Which LLM answers for a workspace, and with which key: the workspace's own
 * setting, else the server's environment (`PARLEY_LLM_*`), else Parley's
 * offline provider. The one resolution `agent-llm-info`, the connection test
 * and (later) the AI agents use to build their model: `resolve` says what is
 * in force, `target` reads an entry's key at the moment of the call, and
 * `LlmClients.languageModel(primary, fallback)` takes the two targets.
 */
import { Effect, Option, type Redacted } from "effect"
import { EnvironmentLlm } from "../../config/Settings.js"
import type { AuditActor } from "../../domain/identity/Actor.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { LlmConnection } from "../../domain/settings/LlmConnection.js"
import {
  connectionInForce,
  type LlmInfo,
  type LlmSettingSource,
  type ResolvedLlm
} from "../../domain/settings/LlmInfo.js"
import type { SecretName } from "../../domain/workspace/Ids.js"
import type { SecretReferenceMissing } from "../../domain/workspace/Secret.js"
import { AgentLlmSettingsRepo } from "../../persistence/settings/AgentLlmSettingsRepo.js"
import type { LlmTarget } from "../../providers/llm/LlmClients.js"
import { SecretValues } from "../workspace/SecretValues.js"

/** Where a connection's API key is read from when it is called. */
export type LlmKeySource =
  | { readonly kind: "vault"; readonly name: SecretName }
  | { readonly kind: "environment"; readonly value: Redacted.Redacted<string> }
  | { readonly kind: "none" }

/** One LLM in force: the connection, where it was set, and where its key comes from. */
export interface LlmInForceEntry {
  readonly connection: LlmConnection
  readonly source: LlmSettingSource
  readonly key: LlmKeySource
}

/** The workspace's LLM in force and its fallback (the workspace's own, if it set one). */
export interface LlmInForcePair {
  readonly primary: LlmInForceEntry
  readonly fallback: LlmInForceEntry | null
}

/** A workspace's (or a proposed) connection in force, its key in the vault. */
export const entryOf = (connection: LlmConnection, source: LlmSettingSource = "workspace"): LlmInForceEntry => ({
  connection,
  source,
  key: connection.apiKeySecret === null ? { kind: "none" } : { kind: "vault", name: connection.apiKeySecret }
})

export class LlmInForce extends Effect.Service<LlmInForce>()("parley/services/settings/LlmInForce", {
  effect: Effect.gen(function*() {
    const repo = yield* AgentLlmSettingsRepo
    const secrets = yield* SecretValues
    const environment = yield* EnvironmentLlm

    /** The LLM in force for a workspace, and its fallback. */
    const resolve = Effect.fn("LlmInForce.resolve")(function*(workspaceId: WorkspaceId) {
      const settings = yield* repo.find(workspaceId)
      const environmentConnection = Option.match(environment, { onNone: () => null, onSome: (e) => e.connection })
      const { connection, source } = connectionInForce(settings.primaryConnection, environmentConnection)
      const primary: LlmInForceEntry = source === "environment"
        ? {
          connection,
          source,
          key: Option.match(Option.flatMap(environment, (e) => e.apiKey), {
            onNone: () => ({ kind: "none" }),
            onSome: (value) => ({ kind: "environment", value })
          })
        }
        : entryOf(connection, source)
      const fallback = settings.fallbackConnection === null ? null : entryOf(settings.fallbackConnection)
      return { primary, fallback } satisfies LlmInForcePair
    })

    /**
     * An entry made callable: its connection with its key, read now from the
     * vault (counted and audited there as a use by the agent LLM settings),
     * the environment, or none. What `LlmClients.languageModel` takes.
     */
    const target = Effect.fn("LlmInForce.target")(
      function*(
        entry: LlmInForceEntry,
        use: { readonly workspaceId: WorkspaceId; readonly actor: AuditActor }
      ): Effect.fn.Return<LlmTarget, SecretReferenceMissing> {
        const { connection, key } = entry
        switch (key.kind) {
          case "none":
            return { connection, apiKey: Option.none() }
          case "environment":
            return { connection, apiKey: Option.some(key.value) }
          case "vault": {
            const value = yield* secrets.reveal({
              workspaceId: use.workspaceId,
              name: key.name,
              usedBy: { kind: "agent-llm-settings", id: use.workspaceId, name: "Agent LLM settings" },
              actor: use.actor
            })
            return { connection, apiKey: Option.some(value) }
          }
        }
      }
    )

    /** What a UI shows: provider, model, base URL, source, and whether the key is there (a vault name that exists). */
    const info = Effect.fn("LlmInForce.info")(function*(workspaceId: WorkspaceId) {
      const { fallback, primary } = yield* resolve(workspaceId)
      const names = [primary, fallback].flatMap((entry) => entry?.key.kind === "vault" ? [entry.key.name] : [])
      const missing = names.length === 0 ? [] : yield* secrets.missing(workspaceId, names)
      const shown = (entry: LlmInForceEntry): ResolvedLlm => ({
        provider: entry.connection.provider,
        model: entry.connection.model,
        baseUrl: entry.connection.baseUrl,
        source: entry.source,
        keyConfigured: entry.key.kind === "environment" ||
          (entry.key.kind === "vault" && !missing.includes(entry.key.name))
      })
      return { ...shown(primary), fallback: fallback === null ? null : shown(fallback) } satisfies LlmInfo
    })

    return { resolve, target, info } as const
  }),
  dependencies: [AgentLlmSettingsRepo.Default]
}) {}
