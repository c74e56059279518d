import { Context, Schema } from "effect"
import { WorkspaceId } from "../identity/Ids.js"
import { AssistantId } from "./Assistant.js"

/** An immutable, published snapshot of an Assistant. */
export const DeploymentId = Schema.UUID.pipe(Schema.brand("DeploymentId"))
export type DeploymentId = typeof DeploymentId.Type

/** The caller of a public runtime route, as established from its embed token (`cdp_…`). */
export interface EmbedCaller {
  readonly deploymentId: DeploymentId
  readonly agentId: AssistantId
  readonly workspaceId: WorkspaceId
}

/** The embed caller of the current request. */
export class CurrentEmbedCaller extends Context.Tag("parley/CurrentEmbedCaller")<CurrentEmbedCaller, EmbedCaller>() {}
