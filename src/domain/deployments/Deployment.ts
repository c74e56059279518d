import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { AssistantId } from "../assistants/Assistant.js"
import { Finding } from "../assistants/FlowFinding.js"
import { IntentName } from "../assistants/Intent.js"
import { ParleyDocument } from "../assistants/ParleyDocument.js"
import { Actor } from "../identity/Actor.js"
import { WorkspaceId } from "../identity/Ids.js"
import { NullableDateTimeField } from "../ModelFields.js"
import { ListParams } from "../Pagination.js"
import { Revision } from "../Revision.js"
import { AllowedOrigins } from "../WebOrigin.js"

/** An immutable, published snapshot of an Assistant. */
export const DeploymentId = Schema.UUID.pipe(Schema.brand("DeploymentId"))
export type DeploymentId = typeof DeploymentId.Type

/** `live` serves public sessions; `revoked` (final) stops its token at once. */
export const DeploymentStatus = Schema.Literal("live", "revoked").annotations({ identifier: "DeploymentStatus" })
export type DeploymentStatus = typeof DeploymentStatus.Type

/** A deployment's embed token: `cdp_` and 43 URL-safe base64 characters (256 random bits). */
export const EmbedToken = Schema.String.pipe(
  Schema.pattern(/^cdp_[A-Za-z0-9_-]{43}$/),
  Schema.annotations({
    identifier: "EmbedToken",
    description: "cdp_ followed by 43 URL-safe characters",
    examples: ["cdp_4Qm8ZrT1vK6yN3pX9cW2bH7jL5sD0fG8aE1uR6tY3iO"]
  })
)

/** The version of a trained NLU model: a content hash of what it was trained on. */
export const NluModelVersion = Schema.String.pipe(
  Schema.pattern(/^[a-f0-9]{16,64}$/),
  Schema.annotations({ identifier: "NluModelVersion", examples: ["3f2a9c1e7b4d6a80"] })
)

const serverSet = Model.FieldExcept("jsonCreate", "jsonUpdate")

/**
 * A deployment: an immutable snapshot of an Assistant's draft (flow, intents,
 * settings) at `revision` with its trained NLU model, served to embeds that
 * present its token from an allowed origin, each token rate limited.
 */
export class Deployment extends Model.Class<Deployment>("Deployment")({
  id: Model.Generated(DeploymentId),
  workspaceId: serverSet(WorkspaceId),
  agentId: serverSet(AssistantId),
  /** A name for people, e.g. "website" or "spring campaign". */
  name: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(120)), { default: () => "" }),
  status: serverSet(DeploymentStatus),
  /** The draft revision snapshotted. */
  revision: serverSet(Revision),
  nluModelVersion: serverSet(NluModelVersion),
  /** The intents in the snapshot. */
  intents: serverSet(Schema.Array(IntentName)),
  /** Pages allowed to use the deployment's token (checked against `Origin`); `["*"]` allows any. */
  allowedOrigins: AllowedOrigins,
  /** Public requests per minute one token may make (sessions and turns together). */
  rateLimitPerMinute: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(1, 10_000)), {
    default: () => 60
  }),
  tokenHash: Model.Sensitive(Schema.String),
  /** The token's last four characters, e.g. `cdp_…x9Qa`: all that is shown after creation. */
  tokenHint: serverSet(Schema.String),
  snapshot: Model.FieldOnly("select", "insert")(ParleyDocument),
  createdBy: serverSet(Actor),
  createdAt: Model.DateTimeInsertFromDate,
  revokedAt: NullableDateTimeField,
  revokedBy: serverSet(Schema.NullOr(Actor))
}) {}

/**
 * The body of `POST /agents/{agent_id}/deployments`. `revision`, when given,
 * deploys exactly that draft revision (a 409 if the draft has moved on).
 * Unknown fields are refused.
 */
export const DeploymentCreate = Schema.Struct({
  ...Deployment.jsonCreate.fields,
  revision: Schema.optional(Revision)
}).annotations({
  identifier: "DeploymentCreate",
  parseOptions: { onExcessProperty: "error" },
  // no `revision`: deploy the draft as it is now
  examples: [{ name: "Website widget", allowedOrigins: ["https://shop.example.com"], rateLimitPerMinute: 60 } as never]
})
export type DeploymentCreate = typeof DeploymentCreate.Type

/** The body of `POST /deployments`: the same, with the Assistant named in the body. */
export const DeploymentCreateForAgent = Schema.Struct({
  agentId: AssistantId,
  ...DeploymentCreate.fields
}).annotations({
  identifier: "DeploymentCreateForAgent",
  parseOptions: { onExcessProperty: "error" },
  // no `revision`: deploy the draft as it is now; `agentId` is one that `POST /v1/agents` answered
  examples: [{
    agentId: "0190c7a0-0000-7000-8000-000000000000",
    name: "Website widget",
    allowedOrigins: ["https://shop.example.com"],
    rateLimitPerMinute: 60
  } as never]
})
export type DeploymentCreateForAgent = typeof DeploymentCreateForAgent.Type

/**
 * A new deployment with its embed token and a ready-to-paste snippet, e.g.
 * `<script src="https://parley.example.com/embed/v1/widget.js" data-token="cdp_…" async></script>`.
 * Both are shown in this response only; afterwards there is only `tokenHint`.
 */
export const DeploymentCreated = Schema.Struct({
  deployment: Deployment.json,
  embedToken: Schema.Redacted(EmbedToken),
  snippet: Schema.Redacted(Schema.String)
}).annotations({ identifier: "DeploymentCreated" })

/** The query of `GET /deployments`: a page, optionally one Assistant's or one status's deployments. */
export const DeploymentListParams = Schema.Struct({
  ...ListParams.fields,
  agentId: Schema.optional(AssistantId),
  status: Schema.optional(DeploymentStatus)
})

/** No deployment with this id exists in the current workspace. */
export class DeploymentNotFound extends Schema.TaggedError<DeploymentNotFound>()(
  "DeploymentNotFound",
  { deploymentId: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}

/** The draft has analysis errors, so it cannot be deployed; `findings` lists every one. */
export class DeploymentRefused extends Schema.TaggedError<DeploymentRefused>()(
  "DeploymentRefused",
  { agentId: Schema.String, revision: Schema.Number, findings: Schema.Array(Finding), message: Schema.String },
  HttpApiSchema.annotations({ status: 422 })
) {}
