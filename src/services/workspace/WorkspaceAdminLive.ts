/**
 * The workspace's administration assembled: the vault, shared HTTP tools, the
 * agent settings and LLM providers, usage, leads and error reports.
 */
import { Layer } from "effect"
import { LlmClients } from "../../providers/llm/LlmClients.js"
import { AgentLlm } from "../settings/AgentLlm.js"
import { AgentLlmTests } from "../settings/AgentLlmTests.js"
import { AgentOps } from "../settings/AgentOps.js"
import { LlmInForce } from "../settings/LlmInForce.js"
import { Billing } from "./Billing.js"
import { ErrorReports } from "./ErrorReports.js"
import { Leads } from "./Leads.js"
import { ToolCalls } from "./ToolCalls.js"
import { UsageMeter } from "./UsageMeter.js"
import { UsageReports } from "./UsageReports.js"
import { VaultLive } from "./VaultLive.js"
import { WorkspaceTools } from "./WorkspaceTools.js"
import { WorkspaceToolTests } from "./WorkspaceToolTests.js"

export const WorkspaceAdminLive = Layer.mergeAll(
  AgentOps.Default,
  AgentLlm.Default,
  AgentLlmTests.Default,
  UsageReports.Default,
  Billing.Default,
  Leads.Default,
  ErrorReports.Default,
  WorkspaceToolTests.Default
).pipe(
  Layer.provideMerge(Layer.mergeAll(UsageMeter.Default, LlmClients.Default, LlmInForce.Default)),
  Layer.provideMerge(Layer.mergeAll(WorkspaceTools.Default, ToolCalls.Default)),
  // Below the others: the tools and the settings read values and record references through its ports.
  Layer.provideMerge(VaultLive)
)
