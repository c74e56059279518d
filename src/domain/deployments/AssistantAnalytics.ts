/**
 * `GET /agents/{agent_id}/analytics?days=N`: how an Assistant's deployed
 * conversations went over the last N UTC days (today included). Only public
 * sessions (on deployments) count; editors' test sessions on the draft do not.
 */
import { Schema } from "effect"
import { AnalyticsParams as WindowParams, analyticsWindowFields, UtcDay } from "../AnalyticsWindow.js"
import { AssistantId } from "../assistants/Assistant.js"
import { FlowNodeId } from "../assistants/FlowIds.js"
import { IntentName } from "../assistants/Intent.js"
import { DeploymentId } from "./Deployment.js"

const Count = Schema.Number.pipe(Schema.int(), Schema.nonNegative())
const Ratio = Schema.Number.pipe(Schema.between(0, 1))

/** The query: how many days back (1 to 365, default 30), optionally one deployment only. */
export const AssistantAnalyticsParams = Schema.Struct({
  ...WindowParams.fields,
  deploymentId: Schema.optional(DeploymentId)
})

/** How often an intent was recognised. */
export const IntentCount = Schema.Struct({ intent: IntentName, count: Count }).annotations({
  identifier: "AssistantIntentCount"
})

/** Where abandoned conversations stopped: sessions whose last node was this one and that never ended. */
export const DropOffNode = Schema.Struct({ nodeId: FlowNodeId, count: Count }).annotations({
  identifier: "AssistantDropOffNode"
})

/** One day of the series. */
export const AssistantAnalyticsDay = Schema.Struct({
  day: UtcDay,
  sessions: Count,
  turns: Count,
  completed: Count,
  handedOff: Count,
  fallbacks: Count
}).annotations({ identifier: "AssistantAnalyticsDay" })

/**
 * The figures. `completionRate`: sessions that reached an end node, over
 * sessions. `fallbackRate`: user messages that no intent matched (out of
 * scope) or that failed a question's validation for good, over user turns.
 */
export const AssistantAnalytics = Schema.Struct({
  agentId: AssistantId,
  ...analyticsWindowFields,
  sessions: Count,
  turns: Count,
  completionRate: Ratio,
  handoffRate: Ratio,
  fallbackRate: Ratio,
  /** Outcome label of the end node reached, and how many sessions reached it. */
  outcomes: Schema.Array(Schema.Struct({ outcome: Schema.String, count: Count })),
  /** The most recognised intents, most first (at most 20). */
  topIntents: Schema.Array(IntentCount).pipe(Schema.maxItems(20)),
  /** The nodes most abandoned conversations stopped at, most first (at most 20). */
  dropOffNodes: Schema.Array(DropOffNode).pipe(Schema.maxItems(20)),
  /** One entry per day, oldest first, days without sessions included. */
  daily: Schema.Array(AssistantAnalyticsDay)
}).annotations({ identifier: "AssistantAnalytics" })
export type AssistantAnalytics = typeof AssistantAnalytics.Type
