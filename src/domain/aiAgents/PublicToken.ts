import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { Slug } from "../Slug.js"

/**
 * The public token of a published AI agent: `agt_` and 43 base64url
 * characters (256 random bits). It addresses `/v1/public/ai-agents/{public_token}/turn`,
 * is shown once (at first publish and at each rotation) and stored only as a hash.
 */
export const PublicAgentToken = Schema.String.pipe(
  Schema.pattern(/^agt_[A-Za-z0-9_-]{43}$/, {
    message: () => "a public agent token is agt_ and 43 base64url characters"
  }),
  Schema.brand("PublicAgentToken"),
  Schema.annotations({
    identifier: "PublicAgentToken",
    examples: ["agt_Xv8Nq2LcT5rW9mJ3kB7yH1dF6gS4pZ0aQ2uE5tR8iOk" as never]
  })
)
export type PublicAgentToken = typeof PublicAgentToken.Type

/** What is kept visible of a public token: its prefix and last four characters, `agt_...k3Qz`. */
export const PublicTokenHint = Schema.String.pipe(
  Schema.pattern(/^agt_\.\.\.[A-Za-z0-9_-]{4}$/),
  Schema.annotations({ identifier: "PublicTokenHint", examples: ["agt_...k3Qz"] })
)

/** A newly issued public token: the only time its value is returned. */
export class PublicTokenIssued extends Schema.Class<PublicTokenIssued>("PublicTokenIssued")({
  publicToken: PublicAgentToken,
  hint: PublicTokenHint,
  issuedAt: Schema.DateTimeUtc
}) {}

/** The agent has never been published, so it has no public token to rotate. */
export class AiAgentNotPublished extends Schema.TaggedError<AiAgentNotPublished>()(
  "AiAgentNotPublished",
  { slug: Slug, message: Schema.String },
  HttpApiSchema.annotations({ status: 409, description: "The agent has no live version yet" })
) {}
