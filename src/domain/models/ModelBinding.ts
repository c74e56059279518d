import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { AssistantId } from "../assistants/Assistant.js"
import { Slug } from "../Slug.js"
import { ModelDeploymentId } from "./Ids.js"
import { ModelKind } from "./ModelKind.js"

/** What a deployed model does for what it is attached to. */
export const BindingRole = Schema.Literal("intent-router", "guardrail-classifier", "router").annotations({
  identifier: "BindingRole",
  description: "intent-router: an Assistant's intent classifier; guardrail-classifier: an AI agent's input/output "
    + "guardrail; router: an AI agent's task router"
})
export type BindingRole = typeof BindingRole.Type

const assistantBinding = {
  target: Schema.Literal("assistant"),
  assistantId: AssistantId,
  role: Schema.Literal("intent-router")
}

const agentBinding = {
  target: Schema.Literal("ai-agent"),
  agentSlug: Slug,
  role: Schema.Literal("guardrail-classifier", "router")
}

/**
 * Where a deployment is attached: an Assistant (by id) as its intent router, or
 * an AI agent (by slug) as its guardrail classifier or router. The body of
 * `attach` and `detach`; unknown fields are refused.
 */
export const ModelBinding = Schema.Union(
  Schema.Struct(assistantBinding),
  Schema.Struct(agentBinding)
).annotations({
  identifier: "ModelBinding",
  parseOptions: { onExcessProperty: "error" }
})
export type ModelBinding = typeof ModelBinding.Type

/** A binding as a deployment lists it, with when it was made. */
export const ModelAttachment = Schema.Union(
  Schema.Struct({ ...assistantBinding, attachedAt: Schema.DateTimeUtc }),
  Schema.Struct({ ...agentBinding, attachedAt: Schema.DateTimeUtc })
).annotations({ identifier: "ModelAttachment" })
export type ModelAttachment = typeof ModelAttachment.Type

/** The roles a model of each kind can take (fine-tuned language models are chosen in agent LLM settings instead). */
export const rolesOf: Record<ModelKind, ReadonlyArray<BindingRole>> = {
  "intent-router": ["intent-router", "router"],
  "guardrail-classifier": ["guardrail-classifier"],
  "llm-fine-tune": []
}

/** The Assistant or AI agent named by the binding does not exist in the current workspace. */
export class BindingTargetNotFound extends Schema.TaggedError<BindingTargetNotFound>()(
  "BindingTargetNotFound",
  {
    target: Schema.Literal("assistant", "ai-agent"),
    /** The Assistant id or the agent slug. */
    ref: Schema.String,
    message: Schema.String
  },
  HttpApiSchema.annotations({ status: 404 })
) {}

/** A model of this kind cannot take this role (see `rolesOf`). */
export class BindingIncompatible extends Schema.TaggedError<BindingIncompatible>()(
  "BindingIncompatible",
  { kind: ModelKind, role: BindingRole, message: Schema.String },
  HttpApiSchema.annotations({ status: 400 })
) {}

/** The deployment is not attached there, so there is nothing to detach. */
export class BindingNotFound extends Schema.TaggedError<BindingNotFound>()(
  "BindingNotFound",
  { deploymentId: ModelDeploymentId, binding: ModelBinding, message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}
