import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { Billing } from "../../services/workspace/Billing.js"
import { UsageReports } from "../../services/workspace/UsageReports.js"
import { Api } from "../Api.js"

export const UsageHttpLive = HttpApiBuilder.group(Api, "usage", (handlers) =>
  Effect.gen(function*() {
    const reports = yield* UsageReports
    const billing = yield* Billing

    return handlers
      .handle("usage", ({ urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          reports.report(principal.workspaceId, urlParams)))
      .handle("billingStatus", () =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          billing.status(principal.workspaceId)))
  }))
