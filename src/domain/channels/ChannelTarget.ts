import { Schema } from "effect"
import { DeploymentId } from "../deployments/Deployment.js"
import { Slug } from "../Slug.js"

/**
 * What answers a channel's conversations: a deployment of an Assistant (its
 * immutable snapshot), or an AI agent by slug (whatever version is live).
 */
export const ChannelTarget = Schema.Union(
  Schema.Struct({ type: Schema.Literal("assistant-deployment"), deploymentId: DeploymentId }).annotations({}),
  Schema.Struct({ type: Schema.Literal("ai-agent"), agentSlug: Slug }).annotations({})
).annotations({ identifier: "ChannelTarget" })
export type ChannelTarget = typeof ChannelTarget.Type
