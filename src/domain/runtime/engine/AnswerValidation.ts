/**
 * Whether an answer satisfies a question's validation, and what the question
 * stores when it does: text as typed (trimmed), a number as a JSON number
 * read in the session's locale, an email lower-cased, a date as
 * `YYYY-MM-DD`, a choice as its option's `value`, a regex answer as typed. A
 * button's payload is read as the answer's text, except that a choice
 * question takes a payload equal to an option's value as that option. Text
 * lengths count code points. A regex must match the whole answer, on RE2
 * (see `UserPattern`: linear in the answer); a pattern Parley cannot run
 * matches nothing. When an answer is invalid and the
 * question has no `reprompt`, `defaultReprompt` says what was expected
 * (in English for now).
 */
import type { Either } from "effect"
import type { ChoiceOption, QuestionValidation } from "../../assistants/QuestionValidation.js"
import type { JsonValue } from "../../Json.js"
import type { UserPattern } from "../../patterns/UserPattern.js"
import type { TurnInput } from "../Turn.js"
import { isEmail } from "./BuiltinEntities.js"
import { parseDate } from "./DateParsing.js"
import type { LocaleFormats } from "./LocaleFormats.js"
import { parseNumber } from "./NumberParsing.js"

/** What validating an answer needs besides the answer: the locale and the program's compiled patterns. */
export interface AnswerContext {
  readonly formats: LocaleFormats
  readonly pattern: (source: string) => Either.Either<UserPattern, string>
}

/** The text of an input: what was typed, or the chosen button's payload. */
export const inputText = (input: TurnInput): string => ("text" in input ? input.text : input.payload).trim()

const sameWords = (a: string, b: string) =>
  a.trim().replace(/\s+/g, " ").toLowerCase() === b.trim().replace(/\s+/g, " ").toLowerCase()

/** The option an input chooses: by payload (an option's value), or by text matching a label, value or synonym. */
export const chooseOption = (options: ReadonlyArray<ChoiceOption>, input: TurnInput): ChoiceOption | undefined =>
  ("payload" in input ? options.find((option) => option.value === input.payload) : undefined) ??
    options.find((option) =>
      [option.label, option.value, ...option.synonyms].some((word) => sameWords(word, inputText(input)))
    )

/** The value to store, or `undefined` when the answer is not valid. */
export const validateAnswer = (
  validation: QuestionValidation,
  input: TurnInput,
  context: AnswerContext
): JsonValue | undefined => {
  const text = inputText(input)
  if (text === "") return undefined
  switch (validation.kind) {
    case "text": {
      const length = [...text].length
      if (validation.minLength !== undefined && length < validation.minLength) return undefined
      if (validation.maxLength !== undefined && length > validation.maxLength) return undefined
      return text
    }
    case "number": {
      const value = parseNumber(text, context.formats)
      if (value === undefined || (validation.integer && !Number.isInteger(value))) return undefined
      if (validation.min !== undefined && value < validation.min) return undefined
      if (validation.max !== undefined && value > validation.max) return undefined
      return value
    }
    case "email":
      return isEmail(text) ? text.toLowerCase() : undefined
    case "date":
      return parseDate(text, context.formats)
    case "choice":
      return chooseOption(validation.options, input)?.value
    case "regex": {
      const pattern = context.pattern(validation.pattern)
      return pattern._tag === "Right" && pattern.right.matchesWhole(text) ? text : undefined
    }
  }
}

const bounds = (min: number | undefined, max: number | undefined, unit: string) =>
  min !== undefined && max !== undefined
    ? ` between ${min} and ${max}${unit}`
    : min !== undefined
    ? ` of at least ${min}${unit}`
    : max !== undefined
    ? ` of at most ${max}${unit}`
    : ""

/** The sentence said after an invalid answer when the question has no `reprompt`. */
export const defaultReprompt = (validation: QuestionValidation, formats: LocaleFormats): string => {
  switch (validation.kind) {
    case "text":
      return validation.minLength === undefined && validation.maxLength === undefined
        ? "Please enter an answer."
        : `Please enter an answer${bounds(validation.minLength, validation.maxLength, " characters")}.`
    case "number":
      return `Please enter ${validation.integer ? "a whole number" : "a number"}${
        bounds(validation.min, validation.max, "")
      }.`
    case "email":
      return "Please enter a valid email address."
    case "date":
      return `Please enter a valid date, such as ${formats.dateOrder === "mdy" ? "12/31/2025" : "31/12/2025"}.`
    case "choice":
      return `Please choose one of: ${validation.options.map((option) => option.label).join(", ")}.`
    case "regex":
      return validation.hint === undefined ? "Please enter a valid answer." : `Please enter ${validation.hint}.`
  }
}
