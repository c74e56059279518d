import type { FieldProblem } from "../FieldProblem.js"
import type { SecretName } from "../workspace/Ids.js"
import type { AgentOpsSettings, AgentOpsSettingsPatch } from "./AgentOpsSettings.js"

/** The settings' groups as the API writes them. */
export type AgentOpsGroups = Pick<
  typeof AgentOpsSettings.jsonCreate.Type,
  "publishGates" | "retention" | "tokenBudgets" | "rateLimits" | "handoff"
>

/** A patch applied to stored settings: each group's given fields replace the stored ones; `handoff` whole. */
export const patched = (stored: AgentOpsGroups, patch: typeof AgentOpsSettingsPatch.Type): AgentOpsGroups => ({
  publishGates: { ...stored.publishGates, ...patch.publishGates },
  retention: { ...stored.retention, ...patch.retention },
  tokenBudgets: { ...stored.tokenBudgets, ...patch.tokenBudgets },
  rateLimits: { ...stored.rateLimits, ...patch.rateLimits },
  handoff: patch.handoff ?? stored.handoff
})

/**
 * The rules across fields that settings about to be saved break, each under
 * its dotted field: transcripts are part of their conversations, so they are
 * not kept longer; a token budget that hands off needs somewhere to hand off
 * to; one end user cannot be allowed more than the whole public token.
 */
export const agentOpsProblems = (settings: AgentOpsGroups): ReadonlyArray<FieldProblem> => {
  const problems: Array<FieldProblem> = []
  const { conversationDays, transcriptDays } = settings.retention
  if (conversationDays !== null && (transcriptDays === null || transcriptDays > conversationDays)) {
    problems.push({
      field: "retention.transcriptDays",
      message: `transcripts are kept at most as long as their conversations (${conversationDays} days)`
    })
  }
  if (settings.tokenBudgets.onExceeded === "handoff" && settings.handoff.kind === "none") {
    problems.push({
      field: "tokenBudgets.onExceeded",
      message: "\"handoff\" needs a handoff target: set handoff, or end the conversation"
    })
  }
  if (settings.rateLimits.perEndUserPerMinute > settings.rateLimits.perPublicTokenPerMinute) {
    problems.push({
      field: "rateLimits.perEndUserPerMinute",
      message:
        `one end user cannot be allowed more than the whole public token (${settings.rateLimits.perPublicTokenPerMinute})`
    })
  }
  return problems
}

/** The vault secrets the settings name. */
export const agentOpsSecrets = (settings: AgentOpsGroups): ReadonlyArray<SecretName> =>
  settings.handoff.kind === "webhook" ? [settings.handoff.signingSecret] : []
