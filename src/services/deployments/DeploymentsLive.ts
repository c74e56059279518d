/**
 * Deployments, assembled: the service behind the deployment routes, the
 * analytics over deployed conversations, and the embed tokens' check. Each
 * service keeps the dependencies it declares (a layer given twice by
 * reference is built once); the repository is shared with the runtime. It
 * needs the Assistants service, the audit log, the rate limiter and the
 * database.
 */
import { Layer } from "effect"
import { DeploymentRepo } from "../../persistence/deployments/DeploymentRepo.js"
import { AssistantAnalytics } from "./AssistantAnalytics.js"
import { Deployments } from "./Deployments.js"
import { EmbedTokens } from "./EmbedTokens.js"

export const DeploymentsLive = Layer.mergeAll(Deployments.Default, AssistantAnalytics.Default, EmbedTokens.Default)
  .pipe(
    Layer.provideMerge(DeploymentRepo.Default)
  )
