import { Model } from "@effect/sql"
import { Schema } from "effect"
import { Email } from "../identity/Email.js"
import { HttpUrl } from "../Url.js"
import { LeadId } from "./Ids.js"

/** What a visitor asks for: a product demo, or a conversation with sales. */
export const LeadKind = Schema.Literal("demo", "contact-sales")
export type LeadKind = typeof LeadKind.Type

const Text = (maxLength: number) => Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(maxLength))

/** A phone number as typed: digits, spaces and `+ ( ) - .`, 6 to 32 characters. */
export const PhoneNumber = Schema.Trim.pipe(
  Schema.pattern(/^\+?[0-9][0-9 ().-]{4,30}[0-9]$/, { message: () => "a phone number such as +44 20 7946 0958" })
)

/** The campaign that brought the visitor, from the page's `utm_*` query parameters. */
export const UtmFields = Schema.Struct({
  source: Schema.optional(Text(200)),
  medium: Schema.optional(Text(200)),
  campaign: Schema.optional(Text(200)),
  term: Schema.optional(Text(200)),
  content: Schema.optional(Text(200))
}).annotations({ identifier: "UtmFields" })

/**
 * A demo or contact-sales request from the public site. Leads belong to the
 * installation's operator, not to a workspace.
 */
export class Lead extends Model.Class<Lead>("Lead")({
  id: Model.Generated(LeadId),
  kind: LeadKind,
  name: Text(120),
  email: Email,
  company: Text(200),
  message: Schema.optionalWith(Schema.Trim.pipe(Schema.maxLength(5000)), { default: () => "" }),
  phone: Schema.optionalWith(Schema.NullOr(PhoneNumber), { default: () => null }),
  /** The visitor agreed to be contacted about this request and to the privacy notice; required. */
  consent: Schema.Literal(true),
  /** The visitor also agreed to receive marketing email. */
  marketingOptIn: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  utm: Schema.optionalWith(Schema.NullOr(UtmFields), { default: () => null }),
  /** The page that referred the visitor to the form. */
  referrer: Schema.optionalWith(Schema.NullOr(HttpUrl), { default: () => null }),
  /** The page the form was sent from. */
  pageUrl: Schema.optionalWith(Schema.NullOr(HttpUrl), { default: () => null }),
  createdAt: Model.DateTimeInsertFromDate
}) {}

/**
 * The body of the public lead form; unknown fields are refused.
 *
 * `website` is a honeypot: the form hides it from people (off screen,
 * `tabindex="-1"`, `autocomplete="off"`), so it stays empty unless a bot fills
 * it. A non-empty honeypot gets the same 202 answer, and the lead is stored
 * as spam (for the operator to tell bots apart) and mailed to nobody, so a bot
 * learns nothing from the response.
 */
export const LeadSubmission = Schema.Struct({
  ...Lead.jsonCreate.fields,
  website: Schema.optional(
    Schema.String.pipe(Schema.maxLength(2048)).annotations({
      description: "Honeypot: leave empty. A filled one is answered 202 and the lead is kept as spam, unmailed."
    })
  )
}).annotations({
  identifier: "LeadSubmission",
  parseOptions: { onExcessProperty: "error" },
  examples: [{
    kind: "demo",
    name: "Ada Lovelace",
    email: "ada@example.com",
    company: "Analytical Engines Ltd",
    message: "We would like to see AI agents answering our support mail.",
    phone: "+44 20 7946 0958",
    consent: true,
    marketingOptIn: false,
    utm: { source: "newsletter", campaign: "autumn" },
    referrer: null,
    pageUrl: "https://parley.example.com/demo"
  }]
})

/** The lead was received; it is handled by people, later. */
export const LeadAccepted = Schema.Struct({
  leadId: LeadId,
  status: Schema.Literal("received")
}).annotations({ identifier: "LeadAccepted" })
