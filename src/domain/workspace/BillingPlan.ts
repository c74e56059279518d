import { Schema } from "effect"
import { BillingState, Entitlements, PlanFeature, PlanKey, Renewal } from "./BillingStatus.js"

const unlimited = {
  features: PlanFeature.literals,
  quotas: {
    seats: null,
    assistants: null,
    aiAgents: null,
    monthlySessions: null,
    monthlyTurns: null,
    monthlyAiTokens: null,
    monthlyVoiceMinutes: null,
    monthlyWorkflowRuns: null,
    storageBytes: null
  }
}

const noRenewal = {
  interval: null,
  currentPeriodStart: null,
  currentPeriodEnd: null,
  renewsAt: null,
  cancelAtPeriodEnd: false,
  trialEndsAt: null
}

/**
 * The plan the operator configured for the installation (`PARLEY_PLAN`, JSON);
 * every workspace is on it. A field left out takes the self-hosted default:
 * the `community` plan, every feature, nothing capped, billed by nobody.
 */
export const ConfiguredPlan = Schema.Struct({
  key: Schema.optionalWith(PlanKey, { default: () => "community" }),
  name: Schema.optionalWith(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(120)), {
    default: () => "Community"
  }),
  status: Schema.optionalWith(BillingState, { default: () => "unmanaged" as const }),
  provider: Schema.optionalWith(Schema.Literal("none", "stripe", "manual"), { default: () => "none" as const }),
  entitlements: Schema.optionalWith(Entitlements, { default: () => unlimited }),
  renewal: Schema.optionalWith(Renewal, { default: () => noRenewal })
}).annotations({ identifier: "ConfiguredPlan", parseOptions: { onExcessProperty: "error" } })
export type ConfiguredPlan = typeof ConfiguredPlan.Type

/** The plan of an installation that configured none. */
export const communityPlan: ConfiguredPlan = Schema.decodeSync(ConfiguredPlan)({})
