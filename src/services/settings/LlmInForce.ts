/**
 * Which LLM answers for a workspace, and with which key: the workspace's own
 * setting, else the server's environment (`PARLEY_LLM_*`), else Parley's
 * offline provider. The one resolution `agent-llm-info`, the connection test,
 * the AI agents and workflow `llm` nodes use to build their model: `resolve`
 * says what is in force, `target` reads an entry's key at the moment of the
 * call, `targets` turns a model choice (the workspace's default, or a
 * provider and model of its own) into the two targets that
 * `LlmClients.languageModel(primary, fallback)` takes.
 */
import { Effect, Option, type Redacted, Schema } from "effect"
import { EnvironmentLlm } from "../../config/Settings.js"
import type { ModelChoice, ResolvedModel } from "../../domain/aiAgents/ModelSettings.js"
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

/** What a caller asks of the model: which one, and the sampling values that override its connection's defaults. */
export interface ModelRequest {
  readonly model: ModelChoice
  readonly temperature?: number | undefined
  readonly maxOutputTokens?: number | undefined
}

/** A model choice made callable: the targets to call, and which provider and model answer. */
export interface LlmTargets {
  readonly primary: LlmTarget
  readonly fallback: LlmTarget | null
  readonly resolved: typeof ResolvedModel.Type
}

/** The model asked for cannot be called: the workspace has no connection for its provider, or the key is missing. */
export class LlmModelUnavailable extends Schema.TaggedError<LlmModelUnavailable>()("LlmModelUnavailable", {
  provider: Schema.String,
  message: Schema.String
}) {}

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

    /**
     * The targets of a model request: with the workspace default, the LLM in
     * force and its fallback; with an explicit provider and model, the
     * workspace's connection for that provider (in force or fallback) asked
     * for that model, and no fallback. Keys are read now, on `actor`'s behalf.
     */
    const targets = Effect.fn("LlmInForce.targets")(function*(
      workspaceId: WorkspaceId,
      request: ModelRequest,
      actor: AuditActor
    ): Effect.fn.Return<LlmTargets, LlmModelUnavailable> {
      const { fallback, primary } = yield* resolve(workspaceId)
      const tuned = (entry: LlmInForceEntry, model?: string): LlmInForceEntry => ({
        ...entry,
        connection: {
          ...entry.connection,
          model: model ?? entry.connection.model,
          temperature: request.temperature ?? entry.connection.temperature,
          maxOutputTokens: request.maxOutputTokens ?? entry.connection.maxOutputTokens
        }
      })
      const callable = (entry: LlmInForceEntry) =>
        Effect.mapError(
          target(entry, { workspaceId, actor }),
          (missing) => new LlmModelUnavailable({ provider: entry.connection.provider, message: missing.message })
        )
      const choice = request.model
      if (choice.source === "explicit") {
        const entry = [primary, fallback].find((candidate) => candidate?.connection.provider === choice.provider)
        if (entry === undefined || entry === null) {
          return yield* new LlmModelUnavailable({
            provider: choice.provider,
            message: `The model is ${choice.provider} (${choice.model}), but the workspace has no ${choice.provider} ` +
              "connection"
          })
        }
        return {
          primary: yield* callable(tuned(entry, choice.model)),
          fallback: null,
          resolved: { provider: choice.provider, model: choice.model, source: "agent" }
        }
      }
      return {
        primary: yield* callable(tuned(primary)),
        fallback: fallback === null ? null : yield* callable(tuned(fallback)),
        resolved: {
          provider: primary.connection.provider,
          model: primary.connection.model,
          source: "workspace-default"
        }
      }
    })

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

    return { resolve, target, targets, info } as const
  }),
  dependencies: [AgentLlmSettingsRepo.Default]
}) {}
