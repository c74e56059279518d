/**
 * A run's input checked against the inputs its trigger declares (Dify's
 * start variables): each declared input present with its JSON type, or
 * absent (or `null`) and then its default when it has one, or refused when
 * it is required. Members the trigger does not declare are kept (an ingress
 * event carries more than a workflow reads). A trigger that declares no
 * inputs takes any JSON value; a missing input is `{}`.
 */
import { Either } from "effect"
import type { JsonObject, JsonValue } from "../../Json.js"
import type { InputVariable, InputVariableType } from "../TriggerData.js"
import type { TriggerNode } from "../WorkflowNode.js"
import { failedAt, type WorkflowRunFailed } from "./WorkflowRunFailed.js"

const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const hasType = (value: JsonValue, type: InputVariableType): boolean => {
  switch (type) {
    case "string":
    case "number":
    case "boolean":
      return typeof value === type
    case "object":
      return isObject(value)
    case "array":
      return Array.isArray(value)
  }
}

const check = (given: JsonObject, declared: InputVariable): { value?: JsonValue; problem?: string } => {
  const value = Object.hasOwn(given, declared.name) ? given[declared.name] : undefined
  if (value === undefined || value === null) {
    if (declared.default !== undefined) return { value: declared.default }
    return declared.required ? { problem: `${declared.name} is required` } : {}
  }
  return hasType(value, declared.type) ? { value } : { problem: `${declared.name} must be a ${declared.type}` }
}

/** The input a run starts with, defaults applied, or an `invalid-input` failure at the trigger naming every problem. */
export const validateRunInput = (
  trigger: typeof TriggerNode.Type,
  input: JsonValue | undefined
): Either.Either<JsonValue, WorkflowRunFailed> => {
  const declared = trigger.data.inputs
  if (declared.length === 0) return Either.right(input ?? {})
  if (input !== undefined && input !== null && !isObject(input)) {
    return Either.left(failedAt(trigger.id, "invalid-input", "the input must be a JSON object"))
  }
  const given: JsonObject = input ?? {}
  const problems: Array<string> = []
  const values = new Map<string, JsonValue | undefined>()
  for (const variable of declared) {
    const { problem, value } = check(given, variable)
    if (problem !== undefined) problems.push(problem)
    else values.set(variable.name, value)
  }
  if (problems.length > 0) {
    return Either.left(failedAt(trigger.id, "invalid-input", `invalid input: ${problems.join("; ")}`))
  }
  // Built from entries, so that a member named `__proto__` stays a member.
  const undeclared = Object.entries(given).filter(([name]) => !values.has(name))
  const checked = [...values].filter((entry): entry is [string, JsonValue] => entry[1] !== undefined)
  return Either.right(Object.fromEntries([...undeclared, ...checked]))
}
