import { Schema } from "effect"

/** The display name of a resource (an Assistant, an AI agent, a workflow, a channel, a token): trimmed, 1 to 120 characters. */
export const Name = Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(120))
