import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { ErrorReportAccepted, ErrorReportSubmission } from "../../domain/workspace/ErrorReport.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

/** Error reports from UIs (`/v1/support/error-report`), stored and counted by fingerprint. */
export class SupportApi extends HttpApiGroup.make("support")
  .add(
    HttpApiEndpoint.post("reportError", "/support/error-report")
      .setPayload(ErrorReportSubmission)
      .addSuccess(ErrorReportAccepted, { status: 202 })
      .annotate(OpenApi.Summary, "Report an error a UI met, with its trace id")
      .pipe(requires("support.report"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Support")
  .annotate(
    OpenApi.Description,
    "A UI reports the errors it meets, with the trace id, route and status of the failed call, so an operator can find them; repeats of one error are counted together."
  )
{}
