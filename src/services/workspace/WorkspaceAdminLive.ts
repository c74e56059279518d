/**
 * The workspace's administration assembled: the vault, shared HTTP tools, the
 * agent settings and LLM providers, usage, leads and error reports.
 */
import { Layer } from "effect"
import { UsageMeter } from "./UsageMeter.js"

export const WorkspaceAdminLive = Layer.mergeAll(UsageMeter.Default)
