import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../identity/Ids.js"
import { DateTimeField } from "../ModelFields.js"
import { Name } from "../Name.js"
import { ListParams } from "../Pagination.js"
import { Revision } from "../Revision.js"
import { Slug } from "../Slug.js"
import { HttpUrl } from "../Url.js"
import { ChainSteps } from "./ChainStep.js"
import { ChainId } from "./Ids.js"

const Description = Schema.String.pipe(Schema.maxLength(2000))

/** A masked form of a signing secret that identifies it without revealing it, e.g. `whsec_…k3Qz`. */
export const SecretHint = Schema.String.pipe(Schema.maxLength(32), Schema.annotations({ identifier: "SecretHint" }))

/**
 * A workflow chain (by slug): workflow steps, ordered or branching, run as
 * durable chain runs, started by `run`, by authenticated `ingress`, or by the
 * signed public ingress when `ingressEnabled`.
 */
export class Chain extends Model.Class<Chain>("Chain")({
  id: Model.Generated(ChainId),
  workspaceId: Model.FieldExcept("jsonCreate", "jsonUpdate")(WorkspaceId),
  /** The chain's address, unique per workspace; fixed at creation (public ingress URLs embed it). */
  slug: Model.FieldExcept("update", "jsonUpdate")(Slug),
  name: Name,
  description: Schema.optionalWith(Description, { default: () => "" }),
  steps: Schema.optionalWith(ChainSteps, { default: () => [] }),
  /** Whether the signed public ingress route accepts events for this chain. */
  ingressEnabled: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  /**
   * Where Parley posts the chain's run events (`chain.run.paused`, `.succeeded`,
   * `.failed`, `.cancelled`), signed with the chain's secret by the same
   * Standard Webhooks scheme; null for none.
   */
  eventsUrl: Schema.optionalWith(Schema.NullOr(HttpUrl), { default: () => null }),
  /** The Standard Webhooks signing secret, encrypted at rest; answered in clear only at creation and rotation. */
  ingressSecret: Model.Sensitive(Schema.String),
  ingressSecretHint: Model.FieldExcept("jsonCreate", "jsonUpdate")(SecretHint),
  ingressSecretRotatedAt: DateTimeField,
  revision: Model.FieldExcept("jsonCreate", "jsonUpdate")(Revision),
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate
}) {}

/** The fields of a new chain; unknown fields are refused. */
export const ChainCreate = Chain.jsonCreate.annotations({
  identifier: "ChainCreate",
  parseOptions: { onExcessProperty: "error" }
})

/** A partial update of a chain (the slug is fixed); unknown fields are refused. */
export const ChainPatch = Schema.Struct({
  name: Schema.optional(Name),
  description: Schema.optional(Description),
  steps: Schema.optional(ChainSteps),
  ingressEnabled: Schema.optional(Schema.Boolean),
  eventsUrl: Schema.optional(Schema.NullOr(HttpUrl))
}).annotations({ identifier: "ChainPatch", parseOptions: { onExcessProperty: "error" } })

/** The query of `GET /workflow-chains`: a page, optionally of names or slugs containing `q`. */
export const ChainListParams = Schema.Struct({
  ...ListParams.fields,
  q: Schema.optional(Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(120)))
})

/** No chain with this slug exists in the current workspace. */
export class ChainNotFound extends Schema.TaggedError<ChainNotFound>()(
  "ChainNotFound",
  { slug: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}

/** Another chain of the workspace already has this slug. */
export class ChainSlugTaken extends Schema.TaggedError<ChainSlugTaken>()(
  "ChainSlugTaken",
  { slug: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}
