/**
 * The rules of an HTTP tool definition that span its fields, checked when a
 * tool is written: GET and DELETE send no body, every `{{input.x}}` names a
 * property the input schema declares, and the input schema keeps to the
 * supported subset. Also: which vault secrets a definition names.
 */
import type { FieldProblem } from "../FieldProblem.js"
import type { HttpToolDefinition } from "./HttpToolDefinition.js"
import type { SecretName } from "./Ids.js"
import { inputSchemaProblems } from "./ToolInputSchemaRules.js"

const PLACEHOLDER = /\{\{\s*input((?:\.[A-Za-z_][A-Za-z0-9_]*)+)\s*\}\}/g

/** The input paths (`["address", "city"]`) a template's placeholders name. */
export const placeholderPaths = (template: string): ReadonlyArray<ReadonlyArray<string>> =>
  Array.from(template.matchAll(PLACEHOLDER), (match) => match[1]!.slice(1).split("."))

/** Every template of a definition, with the field it sits in. */
const templates = (definition: HttpToolDefinition): ReadonlyArray<readonly [string, string]> => {
  const found: Array<readonly [string, string]> = [["url", definition.url]]
  for (const [name, value] of Object.entries(definition.headers)) {
    if ("value" in value) found.push([`headers.${name}`, value.value])
  }
  for (const [name, value] of Object.entries(definition.query)) {
    if ("value" in value) found.push([`query.${name}`, value.value])
  }
  const body = definition.body
  if (body?.kind === "text") found.push(["body.template", body.template])
  if (body?.kind === "form") {
    for (const [name, value] of Object.entries(body.fields)) found.push([`body.fields.${name}`, value])
  }
  if (body?.kind === "json") {
    const walk = (value: unknown, at: string): void => {
      if (typeof value === "string") found.push([at, value])
      else if (typeof value === "object" && value !== null) {
        for (const [key, item] of Object.entries(value)) walk(item, `${at}.${key}`)
      }
    }
    walk(body.template, "body.template")
  }
  return found
}

type SchemaNode = Readonly<Record<string, unknown>>

/** Whether the schema declares the path (a level without `properties` takes any name). */
const declares = (schema: SchemaNode, path: ReadonlyArray<string>): boolean => {
  let node: SchemaNode | undefined = schema
  for (const name of path) {
    const properties = node?.properties as Readonly<Record<string, SchemaNode>> | undefined
    if (properties === undefined) return node === schema ? false : true
    if (!Object.hasOwn(properties, name)) return false
    node = properties[name]
  }
  return true
}

/** What is wrong with a definition across its fields (empty when nothing). */
export const definitionProblems = (definition: HttpToolDefinition): ReadonlyArray<FieldProblem> => {
  const problems: Array<FieldProblem> = [...inputSchemaProblems(definition.inputSchema)]
  if ((definition.method === "GET" || definition.method === "DELETE") && definition.body !== null) {
    problems.push({ field: "body", message: `a ${definition.method} tool sends no body` })
  }
  for (const [field, template] of templates(definition)) {
    for (const path of placeholderPaths(template)) {
      if (!declares(definition.inputSchema, path)) {
        problems.push({ field, message: `{{input.${path.join(".")}}} names no property of the input schema` })
      }
    }
  }
  return problems
}

/** The vault secrets a definition's headers and query read, each once, in order. */
export const secretNames = (definition: HttpToolDefinition): ReadonlyArray<SecretName> => {
  const names = [...Object.values(definition.headers), ...Object.values(definition.query)].flatMap((value) =>
    "secret" in value ? [value.secret] : []
  )
  return [...new Set(names)]
}
