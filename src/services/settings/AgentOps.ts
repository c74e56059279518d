/**
 * How the workspace runs its AI agents: publish gates, retention, token
 * budgets, public rate limits and the handoff target. A workspace that never
 * changed them reads `defaultAgentOps`. A change is applied group by group to
 * the stored settings, checked across fields and against the vault (a webhook
 * handoff signs with a vault secret), records the secrets it names and is
 * audited, in one transaction; concurrent changes apply one after the other.
 *
 * A `channel` handoff is refused for now: channel connections are not built
 * (issue 15), so no connection id can name one yet.
 */
import { SqlClient } from "@effect/sql"
import { DateTime, Effect } from "effect"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { Origin } from "../../domain/identity/Origin.js"
import { actorOf, type Principal } from "../../domain/identity/Principal.js"
import { agentOpsProblems, agentOpsSecrets, patched } from "../../domain/settings/AgentOpsRules.js"
import { AgentOpsSettings, type AgentOpsSettingsPatch } from "../../domain/settings/AgentOpsSettings.js"
import { settingsInvalid } from "../../domain/settings/SettingsInvalid.js"
import { AgentOpsSettingsRepo, type AgentOpsSettingsRow } from "../../persistence/settings/AgentOpsSettingsRepo.js"
import { transaction } from "../../persistence/Transaction.js"
import { currentDate } from "../assistants/Assistants.js"
import { SettingsWrites } from "./SettingsWrites.js"

/** The settings of a row its repository decoded already: not validated a second time. */
const toSettings = (row: AgentOpsSettingsRow) =>
  AgentOpsSettings.make({ ...row, updatedAt: DateTime.unsafeFromDate(row.updatedAt) }, { disableValidation: true })

const groupsOf = ({ handoff, publishGates, rateLimits, retention, tokenBudgets }: AgentOpsSettingsRow) => ({
  publishGates,
  retention,
  tokenBudgets,
  rateLimits,
  handoff
})

export class AgentOps extends Effect.Service<AgentOps>()("parley/services/settings/AgentOps", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const repo = yield* AgentOpsSettingsRepo
    const writes = yield* SettingsWrites

    /** The workspace's agent-ops settings, or the defaults when it never changed them. */
    const get = Effect.fn("AgentOps.get")(function*(workspaceId: WorkspaceId) {
      return toSettings(yield* repo.find(workspaceId))
    })

    /** Apply a patch, group by group, after checking the result across fields and against the vault. */
    const update = Effect.fn("AgentOps.update")(
      function*(
        principal: Principal,
        workspaceId: WorkspaceId,
        patch: typeof AgentOpsSettingsPatch.Type,
        origin: Origin
      ) {
        const before = groupsOf(yield* repo.findForUpdate(workspaceId))
        const after = patched(before, patch)
        const problems = [
          ...agentOpsProblems(after),
          ...(after.handoff.kind === "channel"
            ? [{
              field: "handoff.connectionId",
              message: "no channel connection of this workspace has this id (channels are not available yet)"
            }]
            : [])
        ]
        if (problems.length > 0) return yield* settingsInvalid(problems)
        const names = agentOpsSecrets(after)
        yield* writes.requireSecrets(workspaceId, names)
        const updatedBy = actorOf(principal)
        const updatedAt = yield* currentDate
        yield* repo.save(workspaceId, after, updatedBy, updatedAt)
        yield* writes.recorded(principal, origin, {
          workspaceId,
          resource: { kind: "agent-ops-settings", id: workspaceId, name: "Agent-ops settings" },
          names,
          action: "agent-ops-settings.updated",
          summary: { before, after }
        })
        return AgentOpsSettings.make({
          workspaceId,
          ...after,
          updatedBy,
          updatedAt: DateTime.unsafeFromDate(updatedAt)
        })
      },
      transactional
    )

    return { get, update } as const
  }),
  dependencies: [AgentOpsSettingsRepo.Default, SettingsWrites.Default]
}) {}
