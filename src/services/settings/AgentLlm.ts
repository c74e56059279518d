/**
 * The workspace's LLM settings for AI agents: a primary connection, a
 * fallback and an embeddings provider, each naming its API key by vault
 * secret (never holding one).
 * A change is checked across fields and against the vault, records the
 * secrets it names, and is audited, in one transaction; concurrent changes
 * apply one after the other.
 */
import { SqlClient } from "@effect/sql"
import { DateTime, Effect } from "effect"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { Origin } from "../../domain/identity/Origin.js"
import { actorOf, type Principal } from "../../domain/identity/Principal.js"
import {
  AgentLlmSettings,
  type AgentLlmSettingsPatch,
  settingsProblems
} from "../../domain/settings/AgentLlmSettings.js"
import type { LlmConnection } from "../../domain/settings/LlmConnection.js"
import { settingsInvalid } from "../../domain/settings/SettingsInvalid.js"
import type { SecretName } from "../../domain/workspace/Ids.js"
import { AgentLlmSettingsRepo, type AgentLlmSettingsRow } from "../../persistence/settings/AgentLlmSettingsRepo.js"
import { transaction } from "../../persistence/Transaction.js"
import { currentDate } from "../assistants/Assistants.js"
import { SettingsWrites } from "./SettingsWrites.js"

/** The settings as the API shows them. */
const toSettings = (row: AgentLlmSettingsRow) =>
  AgentLlmSettings.make({
    workspaceId: row.workspaceId,
    primary: row.primaryConnection,
    fallback: row.fallbackConnection,
    embeddings: row.embeddingsConnection,
    updatedBy: row.updatedBy,
    updatedAt: DateTime.unsafeFromDate(row.updatedAt)
  })

/** The vault names the connections use, each once. */
const secretNames = (...connections: ReadonlyArray<LlmConnection | null>): ReadonlyArray<SecretName> => [
  ...new Set(connections.flatMap((connection) => connection?.apiKeySecret ? [connection.apiKeySecret] : []))
]

export class AgentLlm extends Effect.Service<AgentLlm>()("parley/services/settings/AgentLlm", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const repo = yield* AgentLlmSettingsRepo
    const writes = yield* SettingsWrites

    /** The workspace's settings; a workspace that never saved any has no connection of its own. */
    const get = Effect.fn("AgentLlm.get")(function*(workspaceId: WorkspaceId) {
      return toSettings(yield* repo.find(workspaceId))
    })

    /** Replace the connections given (null clears one), after checking them across fields and against the vault. */
    const update = Effect.fn("AgentLlm.update")(
      function*(principal: Principal, patch: typeof AgentLlmSettingsPatch.Type, origin: Origin) {
        const workspaceId = principal.workspaceId
        const before = yield* repo.findForUpdate(workspaceId)
        const primary = patch.primary === undefined ? before.primaryConnection : patch.primary
        const fallback = patch.fallback === undefined ? before.fallbackConnection : patch.fallback
        const embeddings = patch.embeddings === undefined ? before.embeddingsConnection : patch.embeddings
        const problems = settingsProblems(primary, fallback, embeddings)
        if (problems.length > 0) return yield* settingsInvalid(problems)
        const names = secretNames(primary, fallback, embeddings)
        yield* writes.requireSecrets(workspaceId, names)
        const row = {
          workspaceId,
          primaryConnection: primary,
          fallbackConnection: fallback,
          embeddingsConnection: embeddings,
          updatedBy: actorOf(principal),
          updatedAt: yield* currentDate
        }
        yield* repo.save(row)
        yield* writes.recorded(principal, origin, {
          workspaceId,
          resource: { kind: "agent-llm-settings", id: workspaceId, name: "Agent LLM settings" },
          names,
          action: "agent-llm-settings.updated",
          summary: {
            before: {
              primary: before.primaryConnection,
              fallback: before.fallbackConnection,
              embeddings: before.embeddingsConnection
            },
            after: { primary, fallback, embeddings }
          }
        })
        return toSettings(row)
      },
      transactional
    )

    return { get, update } as const
  }),
  dependencies: [AgentLlmSettingsRepo.Default, SettingsWrites.Default]
}) {}
