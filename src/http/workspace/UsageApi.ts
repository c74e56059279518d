import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { BillingStatus } from "../../domain/workspace/BillingStatus.js"
import { UsageParams, UsageRangeInvalid, WorkspaceUsage } from "../../domain/workspace/Usage.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

/** The workspace's usage by period and its plan (`/v1/workspaces/usage`, `/v1/workspaces/billing/status`). */
export class UsageApi extends HttpApiGroup.make("usage")
  .add(
    HttpApiEndpoint.get("usage", "/workspaces/usage")
      .setUrlParams(UsageParams)
      .addSuccess(WorkspaceUsage)
      .addError(UsageRangeInvalid)
      .annotate(OpenApi.Summary, "Usage by period: sessions, turns, AI tokens and cost, voice, runs, storage")
      .pipe(requires("workspace.usage"))
  )
  .add(
    HttpApiEndpoint.get("billingStatus", "/workspaces/billing/status")
      .addSuccess(BillingStatus)
      .annotate(OpenApi.Summary, "The plan, its entitlements, seats and renewal")
      .pipe(requires("billing.read"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Usage and billing")
  .annotate(
    OpenApi.Description,
    "What the workspace used, by day, week or month, and the plan it is on. Plans have no hard caps: usage is reported, never blocked."
  )
{}
