import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { ValidationFailed } from "../../domain/HttpErrors.js"
import { LeadAccepted, LeadSubmission } from "../../domain/workspace/Lead.js"

/** The public demo and contact-sales form (`/v1/leads`): no credentials, rate limited per address. */
export class LeadsApi extends HttpApiGroup.make("leads")
  .add(
    HttpApiEndpoint.post("submit", "/leads")
      .setPayload(LeadSubmission)
      .addSuccess(LeadAccepted, { status: 202 })
      .addError(ValidationFailed)
      .annotate(OpenApi.Summary, "Send a demo or contact-sales request")
      .annotate(
        OpenApi.Description,
        "Public and rate limited per client address (429 with Retry-After). `website` is a honeypot that must stay empty: a filled one is answered 202 as usual and the lead is kept as spam, never mailed. Each address may send 5 leads an hour."
      )
  )
  .prefix("/v1")
  .annotate(OpenApi.Title, "Leads")
  .annotate(OpenApi.Description, "Public lead forms: demo and contact-sales requests for the installation's operator.")
{}
