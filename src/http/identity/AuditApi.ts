import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { ValidationFailed } from "../../domain/HttpErrors.js"
import { AuditQuery, AuditRecord } from "../../domain/identity/AuditRecord.js"
import { Page } from "../../domain/Pagination.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

/** The workspace audit log (`/v1/audit`). */
export class AuditApi extends HttpApiGroup.make("audit")
  .add(
    HttpApiEndpoint.get("list", "/audit")
      .setUrlParams(AuditQuery)
      .addSuccess(Page(AuditRecord.json))
      .addError(ValidationFailed)
      .annotate(OpenApi.Summary, "Search the workspace audit log")
      .annotate(
        OpenApi.Description,
        "Newest first, filtered by actor, action (exact or `prefix.*`), resource type and id, and time range " +
          "(`from` inclusive, `to` exclusive; `to` before `from` is a `ValidationFailed`). Each record's `hash` " +
          "chains to the previous one's (`prevHash`) by `sequence`, so a removed or edited record is detectable."
      )
      .pipe(requires("audit.read"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Audit")
  .annotate(
    OpenApi.Description,
    "Every write and sign-in of a workspace: who, what, on which resource, the before/after summary (never " +
      "secrets), trace id, address and user agent, in an append-only hash chain."
  )
{}
