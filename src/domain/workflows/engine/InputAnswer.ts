/**
 * How an `input` node reads the user's next message, by its `expect`. A
 * message is text (a simulator turn's `text`) or a JSON payload (a turn's
 * `payload`, a chain's `/resume`). `text`: the text as typed (a number or
 * yes/no payload as its JSON text); `number`: a number, or text that writes
 * one (`1,234.5`, `-3`, as `NumberParsing` reads English); `boolean`: a
 * boolean, or yes/no, true/false, y/n, 1/0 in any case; `json`: any payload,
 * or text that parses as JSON. Empty text reads as nothing. A message that
 * does not read is refused with the reason, and the node asks again.
 */
import { Either } from "effect"
import type { JsonValue } from "../../Json.js"
import { localeFormats } from "../../runtime/engine/LocaleFormats.js"
import { parseNumber } from "../../runtime/engine/NumberParsing.js"
import type { InputExpectation } from "../NodeData.js"

const ENGLISH = localeFormats("en")
const YES = new Set(["yes", "y", "true", "1"])
const NO = new Set(["no", "n", "false", "0"])

const asNumber = (message: JsonValue): number | undefined =>
  typeof message === "number" ? message : typeof message === "string" ? parseNumber(message, ENGLISH) : undefined

const asBoolean = (message: JsonValue): boolean | undefined => {
  if (typeof message === "boolean") return message
  const word = typeof message === "string"
    ? message.trim().toLowerCase()
    : typeof message === "number"
    ? `${message}`
    : ""
  return YES.has(word) ? true : NO.has(word) ? false : undefined
}

const asJson = (message: JsonValue): Either.Either<JsonValue, string> => {
  if (typeof message !== "string") return Either.right(message)
  try {
    return Either.right(JSON.parse(message) as JsonValue)
  } catch {
    return Either.left("expected a JSON value")
  }
}

/** The value an input node stores for a message, or why the message does not read as expected. */
export const readAnswer = (
  expect: typeof InputExpectation.Type,
  message: JsonValue
): Either.Either<JsonValue, string> => {
  if (typeof message === "string" && message.trim() === "") return Either.left("the message is empty")
  switch (expect) {
    case "text":
      return typeof message === "string"
        ? Either.right(message)
        : typeof message === "number" || typeof message === "boolean"
        ? Either.right(JSON.stringify(message))
        : Either.left("expected a text message")
    case "number":
      return Either.fromNullable(asNumber(message), () => "expected a number")
    case "boolean":
      return Either.fromNullable(asBoolean(message), () => "expected yes or no")
    case "json":
      return asJson(message)
  }
}
