/**
 * The workspace's administration assembled: the vault, shared HTTP tools, the
 * agent settings and LLM providers, usage, leads and error reports.
 */
import { Layer } from "effect"

export const WorkspaceAdminLive = Layer.empty
