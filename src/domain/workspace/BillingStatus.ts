import { Schema } from "effect"

const Count = Schema.Number.pipe(Schema.int(), Schema.nonNegative())

/** A plan's key as the operator configures it (`community`, `team`, `enterprise`). */
export const PlanKey = Schema.String.pipe(
  Schema.pattern(/^[a-z0-9][a-z0-9-]{0,62}$/),
  Schema.annotations({ identifier: "PlanKey", examples: ["community" as never, "enterprise" as never] })
)

/** The plan a workspace is on: its key and display name. */
export const PlanRef = Schema.Struct({
  key: PlanKey,
  name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(120))
}).annotations({ identifier: "PlanRef" })
export type PlanRef = typeof PlanRef.Type

/**
 * Where the workspace stands with its plan. `unmanaged`: no billing provider
 * is configured (a self-hosted installation), so the plan never lapses.
 */
export const BillingState = Schema.Literal("active", "trialing", "past_due", "cancelled", "unmanaged")
export type BillingState = typeof BillingState.Type

/** A feature a plan may include. */
export const PlanFeature = Schema.Literal(
  "ai-agents",
  "workflows",
  "voice",
  "channels",
  "workspace-models",
  "custom-llm",
  "sso",
  "audit-export",
  "priority-support",
  "sla"
)
export type PlanFeature = typeof PlanFeature.Type

/**
 * A plan's included amounts; null is unlimited. They are soft: going past one
 * never blocks a request, it shows in usage and billing.
 */
export const PlanQuotas = Schema.Struct({
  seats: Schema.NullOr(Count),
  assistants: Schema.NullOr(Count),
  aiAgents: Schema.NullOr(Count),
  monthlySessions: Schema.NullOr(Count),
  monthlyTurns: Schema.NullOr(Count),
  monthlyAiTokens: Schema.NullOr(Count),
  monthlyVoiceMinutes: Schema.NullOr(Count),
  monthlyWorkflowRuns: Schema.NullOr(Count),
  storageBytes: Schema.NullOr(Count)
}).annotations({ identifier: "PlanQuotas" })

/** What a plan entitles the workspace to: its features and included amounts. */
export const Entitlements = Schema.Struct({
  features: Schema.Array(PlanFeature),
  quotas: PlanQuotas
}).annotations({ identifier: "Entitlements" })

/** Seats of the workspace: included by the plan (null: unlimited), taken by members and by open invitations. */
export const Seats = Schema.Struct({
  included: Schema.NullOr(Count),
  used: Count,
  pendingInvitations: Count
}).annotations({ identifier: "Seats" })

/** The billing cycle; every field is null on an unmanaged plan. */
export const Renewal = Schema.Struct({
  interval: Schema.NullOr(Schema.Literal("month", "year")),
  currentPeriodStart: Schema.NullOr(Schema.DateTimeUtc),
  currentPeriodEnd: Schema.NullOr(Schema.DateTimeUtc),
  /** When the plan renews; null when it will not (cancelled, unmanaged). */
  renewsAt: Schema.NullOr(Schema.DateTimeUtc),
  cancelAtPeriodEnd: Schema.Boolean,
  trialEndsAt: Schema.NullOr(Schema.DateTimeUtc)
}).annotations({ identifier: "Renewal" })

/** The workspace's plan, its entitlements, seats, renewal and standing. */
export const BillingStatus = Schema.Struct({
  plan: PlanRef,
  status: BillingState,
  /** Who bills the workspace: nobody (self-hosted), a payment provider, or by contract. */
  provider: Schema.Literal("none", "stripe", "manual"),
  entitlements: Entitlements,
  seats: Seats,
  renewal: Renewal
}).annotations({ identifier: "BillingStatus" })
export type BillingStatus = typeof BillingStatus.Type
