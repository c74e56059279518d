import { Schema } from "effect"
import { RouteKey } from "./FlowIds.js"

/** A short text the user sees on a button or option: 1 to 80 characters. */
export const ButtonLabel = Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(80))

/** One answer a choice question offers; an `option` edge with its `value` routes it. */
export const ChoiceOption = Schema.Struct({
  value: RouteKey,
  label: ButtonLabel,
  /** Other words that choose this option when typed (matched case-insensitively). */
  synonyms: Schema.optionalWith(
    Schema.Array(Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(80))).pipe(
      Schema.maxItems(50)
    ),
    { default: () => [] }
  )
}).annotations({ identifier: "ChoiceOption" })
export type ChoiceOption = typeof ChoiceOption.Type

/** Any non-empty text, optionally bounded in length. */
export const TextValidation = Schema.Struct({
  kind: Schema.Literal("text"),
  minLength: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 4000))),
  maxLength: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 4000)))
}).annotations({ identifier: "TextValidation" })

/** A number (stored as a JSON number), optionally an integer within bounds. */
export const NumberValidation = Schema.Struct({
  kind: Schema.Literal("number"),
  min: Schema.optional(Schema.Finite),
  max: Schema.optional(Schema.Finite),
  integer: Schema.optionalWith(Schema.Boolean, { default: () => false })
}).annotations({ identifier: "NumberValidation" })

/** An email address (stored lower-cased). */
export const EmailValidation = Schema.Struct({
  kind: Schema.Literal("email")
}).annotations({ identifier: "EmailValidation" })

/** A calendar date, understood in the session's locale and stored as `YYYY-MM-DD`. */
export const DateValidation = Schema.Struct({
  kind: Schema.Literal("date")
}).annotations({ identifier: "DateValidation" })

/** One of a closed set of options, offered as quick replies; the option's `value` is stored. */
export const ChoiceValidation = Schema.Struct({
  kind: Schema.Literal("choice"),
  options: Schema.Array(ChoiceOption).pipe(Schema.minItems(1), Schema.maxItems(20))
}).annotations({ identifier: "ChoiceValidation" })

/**
 * Text that matches a regular expression, whole: RE2 syntax, run in linear
 * time (see `UserPattern`); a pattern Parley cannot run is an analysis error.
 */
export const RegexValidation = Schema.Struct({
  kind: Schema.Literal("regex"),
  pattern: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500)),
  /** What the reprompt says is expected, e.g. "an order number like AB-12345". */
  hint: Schema.optional(Schema.String.pipe(Schema.maxLength(200)))
}).annotations({ identifier: "RegexValidation" })

/** What a question accepts as an answer; anything else counts as a failed attempt. */
export const QuestionValidation = Schema.Union(
  TextValidation,
  NumberValidation,
  EmailValidation,
  DateValidation,
  ChoiceValidation,
  RegexValidation
).annotations({ identifier: "QuestionValidation" })
export type QuestionValidation = typeof QuestionValidation.Type
