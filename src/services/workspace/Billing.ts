/**
 * Where a workspace stands with its plan. The plan and its entitlements come
 * from configuration (`PARLEY_PLAN`; self-hosted default: `community`, every
 * feature, nothing capped, billed by nobody, `unmanaged`); seats are counted
 * from the workspace's members and its open invitations. Nothing is enforced:
 * quotas are reported, never blocking.
 */
import { Clock, Effect } from "effect"
import { Plan } from "../../config/Settings.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { BillingStatus } from "../../domain/workspace/BillingStatus.js"
import { UsageRepo } from "../../persistence/workspace/UsageRepo.js"

export class Billing extends Effect.Service<Billing>()("parley/services/workspace/Billing", {
  effect: Effect.gen(function*() {
    const plan = yield* Plan
    const repo = yield* UsageRepo

    /** The workspace's plan, entitlements, seats and renewal. */
    const status = Effect.fn("Billing.status")(function*(workspaceId: WorkspaceId) {
      const seats = yield* repo.seats(workspaceId, new Date(yield* Clock.currentTimeMillis))
      return {
        plan: { key: plan.key, name: plan.name },
        status: plan.status,
        provider: plan.provider,
        entitlements: plan.entitlements,
        seats: { included: plan.entitlements.quotas.seats, used: seats.members, pendingInvitations: seats.invitations },
        renewal: plan.renewal
      } satisfies BillingStatus
    })

    return { status } as const
  }),
  dependencies: [UsageRepo.Default]
}) {}
