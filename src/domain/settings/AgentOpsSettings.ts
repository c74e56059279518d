import { Model } from "@effect/sql"
import { Schema } from "effect"
import { ChannelConnectionId } from "../channels/Ids.js"
import { Actor } from "../identity/Actor.js"
import { Email } from "../identity/Email.js"
import { WorkspaceId } from "../identity/Ids.js"
import { HttpsUrl } from "../Url.js"
import { SecretName } from "../workspace/Ids.js"

const Days = Schema.Number.pipe(Schema.int(), Schema.between(1, 3650))

/** What an AI agent's publish must pass first (DESIGN §7); a refusal is a 422 listing the failing cases. */
export const PublishGates = Schema.Struct({
  /** Run the agent's eval suite against the candidate before it goes live. */
  runEvalsOnPublish: Schema.Boolean,
  /** The least eval score (0 to 1) a candidate needs. */
  minimumScore: Schema.Number.pipe(Schema.between(0, 1)),
  /** Refuse a candidate that scores below the live version. */
  mustNotRegress: Schema.Boolean
}).annotations({ identifier: "PublishGates" })

/** How long conversations (metadata, analytics) and their transcripts (message text) are kept; null keeps them. */
export const Retention = Schema.Struct({
  conversationDays: Schema.NullOr(Days),
  /** At most `conversationDays`. */
  transcriptDays: Schema.NullOr(Days)
}).annotations({ identifier: "Retention" })

/** The most LLM tokens (in plus out) one conversation may spend, and what happens past it; null: no budget. */
export const TokenBudgets = Schema.Struct({
  perConversation: Schema.NullOr(Schema.Number.pipe(Schema.int(), Schema.between(1, 100_000_000))),
  onExceeded: Schema.Literal("end", "handoff")
}).annotations({ identifier: "TokenBudgets" })

/** Turns per minute allowed on public AI-agent routes, counted per public token and per end user. */
export const AgentRateLimits = Schema.Struct({
  perPublicTokenPerMinute: Schema.Number.pipe(Schema.int(), Schema.between(1, 100_000)),
  perEndUserPerMinute: Schema.Number.pipe(Schema.int(), Schema.between(1, 10_000))
}).annotations({ identifier: "AgentRateLimits" })

/**
 * Where a conversation goes when an agent hands off: nowhere (the agent says
 * it cannot help), a channel connection (helpdesk, contact centre), an email
 * address, or a webhook signed with the Standard Webhooks scheme and a vault secret.
 */
export const AgentHandoffTarget = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("none") }),
  Schema.Struct({
    kind: Schema.Literal("channel"),
    /** A channel connection of the workspace (`/v1/channels/{connection_id}`). */
    connectionId: ChannelConnectionId
  }),
  Schema.Struct({
    kind: Schema.Literal("email"),
    address: Email
  }),
  Schema.Struct({
    kind: Schema.Literal("webhook"),
    url: HttpsUrl,
    signingSecret: SecretName
  })
).annotations({ identifier: "AgentHandoffTarget" })
export type AgentHandoffTarget = typeof AgentHandoffTarget.Type

/**
 * How the workspace runs its AI agents (one row per workspace, created with
 * the defaults): publish gates, retention, token budgets, rate limits and the
 * handoff target.
 */
export class AgentOpsSettings extends Model.Class<AgentOpsSettings>("AgentOpsSettings")({
  workspaceId: Model.FieldExcept("jsonCreate", "jsonUpdate")(WorkspaceId),
  publishGates: PublishGates,
  retention: Retention,
  tokenBudgets: TokenBudgets,
  rateLimits: AgentRateLimits,
  handoff: AgentHandoffTarget,
  /** Who saved the settings last; null while they are the defaults. */
  updatedBy: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.NullOr(Actor)),
  updatedAt: Model.DateTimeUpdateFromDate
}) {}

/** The settings of a workspace that never changed them. */
export const defaultAgentOps = {
  publishGates: { runEvalsOnPublish: false, minimumScore: 0.8, mustNotRegress: true },
  retention: { conversationDays: 90, transcriptDays: 30 },
  tokenBudgets: { perConversation: 200_000, onExceeded: "end" },
  rateLimits: { perPublicTokenPerMinute: 600, perEndUserPerMinute: 20 },
  handoff: { kind: "none" }
} as const satisfies typeof AgentOpsSettings.jsonCreate.Type

const partial = <Fields extends Schema.Struct.Fields>(group: Schema.Struct<Fields>, identifier: string) =>
  Schema.partialWith(group, { exact: true }).annotations({ identifier })

/**
 * A change of the agent-ops settings: within each group, the fields given
 * replace the stored ones; `handoff` is replaced whole. Unknown fields are refused.
 */
export const AgentOpsSettingsPatch = Schema.Struct({
  publishGates: Schema.optional(partial(PublishGates, "PublishGatesPatch")),
  retention: Schema.optional(partial(Retention, "RetentionPatch")),
  tokenBudgets: Schema.optional(partial(TokenBudgets, "TokenBudgetsPatch")),
  rateLimits: Schema.optional(partial(AgentRateLimits, "AgentRateLimitsPatch")),
  handoff: Schema.optional(AgentHandoffTarget)
}).annotations({ identifier: "AgentOpsSettingsPatch", parseOptions: { onExcessProperty: "error" } })
