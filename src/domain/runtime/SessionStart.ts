import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { EndUserId } from "../aiAgents/Ids.js"
import { AssistantId, LanguageTag } from "../assistants/Assistant.js"
import { Finding } from "../assistants/FlowFinding.js"
import { Variables } from "../assistants/Variable.js"

/**
 * The body of `POST /runtime/sessions`: test an Assistant's draft, with
 * initial variables and a locale (the Assistant's language when omitted).
 * Unknown fields are refused.
 */
export const SessionStart = Schema.Struct({
  agentId: AssistantId,
  variables: Schema.optional(Variables),
  locale: Schema.optional(LanguageTag)
}).annotations({
  identifier: "RuntimeSessionStart",
  parseOptions: { onExcessProperty: "error" },
  // `agentId` is an Assistant of yours (`GET /v1/agents`): this one answers 404 until replaced.
  examples: [{
    agentId: AssistantId.make("0193a4f2-7c1e-7b3a-9d2e-5f6a7b8c9d0e"),
    variables: { email: "ada@example.com" },
    locale: "en"
  }]
})
export type SessionStart = typeof SessionStart.Type

/**
 * The body of `POST /public/runtime/sessions` (send `{}` for none): a session
 * on the token's deployment. `variables` are what the embedding page knows
 * (a name, a plan); `endUserId` links one person's sessions. Unknown fields
 * are refused.
 */
export const PublicSessionStart = Schema.Struct({
  variables: Schema.optional(Variables),
  locale: Schema.optional(LanguageTag),
  endUserId: Schema.optional(EndUserId)
}).annotations({ identifier: "PublicSessionStart", parseOptions: { onExcessProperty: "error" } })
export type PublicSessionStart = typeof PublicSessionStart.Type

/** The draft cannot run at all (no start node, a broken start); `findings` says why. */
export class FlowNotRunnable extends Schema.TaggedError<FlowNotRunnable>()(
  "FlowNotRunnable",
  { agentId: Schema.String, findings: Schema.Array(Finding), message: Schema.String },
  HttpApiSchema.annotations({ status: 422 })
) {}
