import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/** One broken rule of a settings write, with the dotted path of the field it concerns. */
export const SettingsProblem = Schema.Struct({
  field: Schema.String,
  message: Schema.String
}).annotations({ identifier: "SettingsProblem" })

/**
 * Workspace settings that pass their schema but break a rule across fields
 * or resources: an `openai-compatible` provider without a base URL, transcripts
 * kept longer than their conversations, a handoff channel that does not exist.
 */
export class SettingsInvalid extends Schema.TaggedError<SettingsInvalid>()(
  "SettingsInvalid",
  { problems: Schema.Array(SettingsProblem), message: Schema.String },
  HttpApiSchema.annotations({ status: 400 })
) {}
