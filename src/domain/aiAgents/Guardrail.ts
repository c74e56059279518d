import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { FieldProblem } from "../FieldProblem.js"
import { WorkspaceId } from "../identity/Ids.js"
import { Name } from "../Name.js"
import { ListParams } from "../Pagination.js"
import { GuardrailKind, GuardrailRule } from "./GuardrailRule.js"
import { AiAgentGuardrailId, AiAgentId } from "./Ids.js"

/**
 * When a guardrail runs: on the end user's message before the model sees it
 * (`input`), or on the agent's reply and tool calls before they take effect
 * (`output`). `jailbreak` and `prompt-injection` are input rules,
 * `allowed-tool-domains` an output rule; the others run at either stage.
 */
export const GuardrailStage = Schema.Literal("input", "output").annotations({ identifier: "GuardrailStage" })
export type GuardrailStage = typeof GuardrailStage.Type

/**
 * What happens on a hit: stop the message and answer `message` (`block`),
 * rewrite it (`redact`: only `pii` and `max-length`), let it pass and record
 * the hit (`warn`), or hand the conversation to a human (`handoff`). When
 * several rules hit, the strongest action wins: handoff, block, redact, warn.
 */
export const GuardrailAction = Schema.Literal("block", "redact", "warn", "handoff").annotations({
  identifier: "GuardrailAction"
})
export type GuardrailAction = typeof GuardrailAction.Type

/** The text the end user sees when a guardrail blocks or hands off: 1 to 500 characters. */
export const GuardrailMessage = Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(500))

/**
 * A guardrail of an AI agent: a rule checked at one stage of every turn and
 * the action taken on a hit. Guardrails are part of the draft: a write bumps
 * the agent's revision and a published version snapshots them.
 */
export class AiAgentGuardrail extends Model.Class<AiAgentGuardrail>("AiAgentGuardrail")({
  id: Model.Generated(AiAgentGuardrailId),
  workspaceId: Model.FieldExcept("jsonCreate", "jsonUpdate")(WorkspaceId),
  agentId: Model.FieldExcept("jsonCreate", "jsonUpdate")(AiAgentId),
  /** Unique per agent; shown in analytics and playground events. */
  name: Name,
  stage: GuardrailStage,
  rule: GuardrailRule,
  action: GuardrailAction,
  enabled: Schema.optionalWith(Schema.Boolean, { default: () => true }),
  /** Shown to the end user on `block` or `handoff`; null takes the agent's default wording. */
  message: Schema.optionalWith(Schema.NullOr(GuardrailMessage), { default: () => null }),
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate
}) {}

/** The fields of a new guardrail; unknown fields are refused. */
export const AiAgentGuardrailCreate = AiAgentGuardrail.jsonCreate.annotations({
  identifier: "AiAgentGuardrailCreate",
  parseOptions: { onExcessProperty: "error" }
})

const guardrailPatchFields = {
  name: Schema.optional(Name),
  stage: Schema.optional(GuardrailStage),
  /** Replaces the whole rule (the kind may change). */
  rule: Schema.optional(GuardrailRule),
  action: Schema.optional(GuardrailAction),
  enabled: Schema.optional(Schema.Boolean),
  message: Schema.optional(Schema.NullOr(GuardrailMessage))
}

/** A partial update of a guardrail: each field given replaces the stored one; unknown fields are refused. */
export const AiAgentGuardrailPatch = Schema.Struct(guardrailPatchFields).annotations({
  identifier: "AiAgentGuardrailPatch",
  parseOptions: { onExcessProperty: "error" }
})

/** A partial update of the guardrail named by `id`, sent to the collection path; unknown fields are refused. */
export const AiAgentGuardrailPatchById = Schema.Struct({ id: AiAgentGuardrailId, ...guardrailPatchFields })
  .annotations({ identifier: "AiAgentGuardrailPatchById", parseOptions: { onExcessProperty: "error" } })

/** The query of the guardrail list: a page (by name), optionally of one stage or rule kind. */
export const AiAgentGuardrailListParams = Schema.Struct({
  ...ListParams.fields,
  stage: Schema.optional(GuardrailStage),
  kind: Schema.optional(GuardrailKind)
})

/** No guardrail with this id exists on the agent. */
export class AiAgentGuardrailNotFound extends Schema.TaggedError<AiAgentGuardrailNotFound>()(
  "AiAgentGuardrailNotFound",
  { guardrailId: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 404, description: "No guardrail with this id on the agent" })
) {}

/** Another guardrail of the agent already has this name. */
export class AiAgentGuardrailNameTaken extends Schema.TaggedError<AiAgentGuardrailNameTaken>()(
  "AiAgentGuardrailNameTaken",
  { name: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 409, description: "Another guardrail of the agent has this name" })
) {}

/**
 * The guardrail breaks a rule that spans fields: a kind at a stage it does
 * not run at, `redact` for a kind that cannot redact, a pattern that does not compile.
 */
export class AiAgentGuardrailInvalid extends Schema.TaggedError<AiAgentGuardrailInvalid>()(
  "AiAgentGuardrailInvalid",
  {
    message: Schema.String,
    problems: Schema.Array(FieldProblem)
  },
  HttpApiSchema.annotations({ status: 400, description: "The guardrail breaks a rule that spans fields" })
) {}
