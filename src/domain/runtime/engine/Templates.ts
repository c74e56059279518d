/**
 * Filling in the text a flow sends. `{{name}}` is a variable, `{{order.total}}`
 * a path into one (object keys and array indexes: `{{items.0.sku}}`);
 * whitespace inside the braces is allowed. Templates are never evaluated: a
 * placeholder that is not a path (`{{ 1 + 2 }}`) stays as written. What a
 * path finds is written as text: a string as it is, a number or boolean as
 * JSON writes it, an array or object as its JSON text; a missing value or
 * `null` writes nothing.
 */
import type { Variables } from "../../assistants/Variable.js"
import type { JsonValue } from "../../Json.js"

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\s*\}\}/g

/** The value at a dotted path into the variables (own properties only), or `undefined`. */
export const readPath = (variables: Variables, path: string): JsonValue | undefined => {
  let current: JsonValue | undefined = variables
  for (const segment of path.split(".")) {
    if (current === null || typeof current !== "object") return undefined
    if (Array.isArray(current)) {
      const items: ReadonlyArray<JsonValue> = current
      current = /^\d+$/.test(segment) ? items[Number(segment)] : undefined
    } else {
      const record = current as { readonly [key: string]: JsonValue }
      current = Object.hasOwn(record, segment) ? record[segment] : undefined
    }
  }
  return current
}

/** How a value reads inside text. */
export const asText = (value: JsonValue | undefined): string => {
  if (value === undefined || value === null) return ""
  return typeof value === "string" ? value : JSON.stringify(value)
}

/** The variables a template reads: the first name of each placeholder's path, once each, in order. */
export const templateVariables = (template: string): ReadonlyArray<string> => [
  ...new Set([...template.matchAll(PLACEHOLDER)].map((match) => match[1]!.split(".")[0]!))
]

/** `template` with each placeholder replaced by the value its path finds. */
export const renderTemplate = (template: string, variables: Variables): string =>
  template.replace(PLACEHOLDER, (_, path: string) => asText(readPath(variables, path)))
