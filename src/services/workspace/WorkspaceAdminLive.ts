/**
 * The workspace's administration assembled: the vault, shared HTTP tools, the
 * agent settings and LLM providers, usage, leads and error reports.
 */
import { Layer } from "effect"
import { AgentOps } from "../settings/AgentOps.js"
import { Billing } from "./Billing.js"
import { ErrorReports } from "./ErrorReports.js"
import { Leads } from "./Leads.js"
import { UsageMeter } from "./UsageMeter.js"
import { UsageReports } from "./UsageReports.js"
import { VaultLive } from "./VaultLive.js"

export const WorkspaceAdminLive = Layer.mergeAll(
  UsageMeter.Default,
  UsageReports.Default,
  Billing.Default,
  AgentOps.Default,
  Leads.Default,
  ErrorReports.Default
).pipe(
  // Below the others: the tools and the settings read values and record references through its ports.
  Layer.provideMerge(VaultLive)
)
