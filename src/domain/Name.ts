import { Schema } from "effect"

/** The display name of a resource (an Assistant, an AI agent, a workflow, a channel, a token): trimmed, 1 to 120 characters. */
export const Name = Schema.Trim.pipe(
  Schema.nonEmptyString(),
  Schema.maxLength(120),
  // the document shows the encoded side (a string before trimming): this names the example it offers
  Schema.annotations({
    jsonSchema: { type: "string", description: "a string that will be trimmed", examples: ["Customer support"] }
  })
)
