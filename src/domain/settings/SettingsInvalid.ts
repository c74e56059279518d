import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { FieldProblem } from "../FieldProblem.js"

/**
 * Workspace settings that pass their schema but break a rule across fields
 * or resources: an `openai-compatible` provider without a base URL, transcripts
 * kept longer than their conversations, a handoff channel that does not exist.
 */
export class SettingsInvalid extends Schema.TaggedError<SettingsInvalid>()(
  "SettingsInvalid",
  { problems: Schema.Array(FieldProblem), message: Schema.String },
  HttpApiSchema.annotations({ status: 400 })
) {}

/** The 400 for settings that break these rules, its message listing each field with its problem. */
export const settingsInvalid = (problems: ReadonlyArray<FieldProblem>) =>
  new SettingsInvalid({ problems, message: problems.map((p) => `${p.field}: ${p.message}`).join("; ") })
