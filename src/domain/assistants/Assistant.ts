import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../identity/Ids.js"
import { Name } from "../Name.js"
import { Revision } from "../Revision.js"

/** A scripted Assistant (the seed's `/v1/agents`). */
export const AssistantId = Schema.UUID.pipe(Schema.brand("AssistantId"))
export type AssistantId = typeof AssistantId.Type

/** A BCP 47 language tag such as `en` or `pt-BR`. */
export const LanguageTag = Schema.String.pipe(
  Schema.pattern(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/),
  Schema.annotations({ identifier: "LanguageTag", description: "A BCP 47 language tag", examples: ["en", "pt-BR"] })
)

/** The confidence below which the classifier answers "none of these" (out of scope). */
export const ConfidenceThreshold = Schema.Number.pipe(Schema.between(0, 1))

/**
 * An Assistant's own threshold, or null (the default): the automatic one its
 * NLU report chooses from the intents' cross-validation.
 */
export const NluThreshold = Schema.NullOr(ConfidenceThreshold)

/** A scripted Assistant: intents plus one draft flow graph, deployed as immutable snapshots. */
export class Assistant extends Model.Class<Assistant>("Assistant")({
  id: Model.Generated(AssistantId),
  workspaceId: Model.FieldExcept("jsonCreate", "jsonUpdate")(WorkspaceId),
  name: Name,
  description: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(2000)), { default: () => "" }),
  language: Schema.optionalWith(LanguageTag, { default: () => "en" }),
  nluThreshold: Schema.optionalWith(NluThreshold, { default: () => null }),
  /** The draft's revision (flow and intents); deployments record the one they snapshot. */
  revision: Model.FieldExcept("jsonCreate", "jsonUpdate")(Revision),
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate
}) {}

/** The fields a client may send to create an Assistant; unknown fields are refused. */
export const AssistantCreate = Assistant.jsonCreate.annotations({
  identifier: "AssistantCreate",
  parseOptions: { onExcessProperty: "error" }
})

/** A partial update of an Assistant; unknown fields are refused. */
export const AssistantPatch = Schema.Struct({
  name: Schema.optional(Name),
  description: Schema.optional(Schema.String.pipe(Schema.maxLength(2000))),
  language: Schema.optional(LanguageTag),
  nluThreshold: Schema.optional(NluThreshold)
}).annotations({ identifier: "AssistantPatch", parseOptions: { onExcessProperty: "error" } })

/** No Assistant with this id exists in the current workspace. */
export class AssistantNotFound extends Schema.TaggedError<AssistantNotFound>()(
  "AssistantNotFound",
  { agentId: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}
