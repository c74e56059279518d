import { Context } from "effect"
import type { AssistantId } from "../assistants/Assistant.js"
import type { WorkspaceId } from "../identity/Ids.js"
import type { DeploymentId } from "./Deployment.js"

/** The caller of a public runtime route, as established from its embed token (`cdp_…`). */
export interface EmbedCaller {
  readonly deploymentId: DeploymentId
  readonly agentId: AssistantId
  readonly workspaceId: WorkspaceId
}

/** The embed caller of the current request. */
export class CurrentEmbedCaller extends Context.Tag("parley/CurrentEmbedCaller")<CurrentEmbedCaller, EmbedCaller>() {}
