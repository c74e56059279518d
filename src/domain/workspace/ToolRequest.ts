/**
 * Filling an HTTP tool's templates with a call's input: the request to send
 * and the same request as answers may show it (secrets as `••••`). URL path
 * and query values are URL-encoded, form fields form-encoded; a JSON body
 * keeps a value's type where a string is one whole placeholder
 * (`"{{input.count}}"` sends the number); elsewhere a value is written as
 * text (objects as JSON, null and missing values as nothing). A header that
 * would hold a control character or a character outside Latin-1 is refused
 * (HTTP cannot carry it), as the input's fault.
 */
import { Either } from "effect"
import type { JsonValue } from "../Json.js"
import type { HttpToolDefinition, ParamValue } from "./HttpToolDefinition.js"
import type { SecretName } from "./Ids.js"
import { MASK } from "./SecretMask.js"
import type { ResolvedToolRequest } from "./ToolCallResult.js"
import type { InputProblem } from "./ToolInputValidation.js"

/** The request to send. */
export interface ToolHttpRequest {
  readonly method: HttpToolDefinition["method"]
  readonly url: URL
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | null
  /** Header names (lower case) that carry a secret: dropped when a redirect leaves the host. */
  readonly secretHeaders: ReadonlyArray<string>
}

const WHOLE = /^\{\{\s*input((?:\.[A-Za-z_][A-Za-z0-9_]*)+)\s*\}\}$/
const PLACEHOLDER = /\{\{\s*input((?:\.[A-Za-z_][A-Za-z0-9_]*)+)\s*\}\}/g
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/

const valueAt = (input: JsonValue, path: string): JsonValue | undefined => {
  let value: JsonValue | undefined = input
  for (const name of path.slice(1).split(".")) {
    if (typeof value !== "object" || value === null || Array.isArray(value) || !Object.hasOwn(value, name)) {
      return undefined
    }
    value = (value as Record<string, JsonValue>)[name]
  }
  return value
}

const text = (value: JsonValue | undefined): string =>
  value === undefined || value === null
    ? ""
    : typeof value === "string"
    ? value
    : typeof value === "object"
    ? JSON.stringify(value)
    : String(value)

/** A template with each placeholder replaced by `encode` of its value's text. */
export const fillTemplate = (template: string, input: JsonValue, encode: (text: string) => string = (t) => t) =>
  template.replace(PLACEHOLDER, (_, path: string) => encode(text(valueAt(input, path))))

const fillJson = (template: JsonValue, input: JsonValue): JsonValue => {
  if (typeof template === "string") {
    const whole = WHOLE.exec(template)
    return whole === null ? fillTemplate(template, input) : (valueAt(input, whole[1]!) ?? null)
  }
  if (Array.isArray(template)) return template.map((item) => fillJson(item, input))
  if (typeof template === "object" && template !== null) {
    return Object.fromEntries(Object.entries(template).map(([key, item]) => [key, fillJson(item, input)]))
  }
  return template
}

const paramValue = (param: ParamValue, input: JsonValue, secrets: ReadonlyMap<SecretName, string>, shown: boolean) =>
  "secret" in param
    ? `${param.prefix ?? ""}${shown ? MASK : secrets.get(param.secret) ?? ""}`
    : fillTemplate(param.value, input)

/** The request for `input`, and as shown; or the problems that keep it from being sent. */
export const renderToolRequest = (
  definition: HttpToolDefinition,
  input: JsonValue,
  secrets: ReadonlyMap<SecretName, string>
): Either.Either<
  { readonly request: ToolHttpRequest; readonly shown: ResolvedToolRequest },
  ReadonlyArray<InputProblem>
> => {
  const problems: Array<InputProblem> = []
  const build = (shown: boolean) => {
    const url = new URL(fillTemplate(definition.url, input, encodeURIComponent))
    for (const [name, param] of Object.entries(definition.query)) {
      url.searchParams.append(name, paramValue(param, input, secrets, shown))
    }
    const headers: Record<string, string> = {}
    for (const [name, param] of Object.entries(definition.headers)) {
      headers[name.toLowerCase()] = paramValue(param, input, secrets, shown)
    }
    let body: string | null = null
    const spec = definition.body
    if (spec?.kind === "json") {
      body = JSON.stringify(fillJson(spec.template, input))
      headers["content-type"] ??= "application/json"
    } else if (spec?.kind === "form") {
      body = new URLSearchParams(
        Object.entries(spec.fields).map(([name, value]): [string, string] => [name, fillTemplate(value, input)])
      )
        .toString()
      headers["content-type"] ??= "application/x-www-form-urlencoded"
    } else if (spec?.kind === "text") {
      body = fillTemplate(spec.template, input)
      headers["content-type"] ??= spec.contentType
    }
    return { url, headers, body }
  }
  const url = fillTemplate(definition.url, input, encodeURIComponent)
  if (!URL.canParse(url)) return Either.left([{ pointer: "", message: "the input makes the URL invalid" }])
  const sent = build(false)
  for (const [name, value] of Object.entries(sent.headers)) {
    if (!HEADER_VALUE.test(value)) {
      problems.push({
        pointer: `/headers/${name}`,
        message: "a header cannot hold control characters or characters outside Latin-1"
      })
    }
  }
  if (problems.length > 0) return Either.left(problems)
  const shownRequest = build(true)
  const secretHeaders = Object.entries(definition.headers).flatMap(([name, param]) =>
    "secret" in param ? [name.toLowerCase()] : []
  )
  return Either.right({
    request: { method: definition.method, url: sent.url, headers: sent.headers, body: sent.body, secretHeaders },
    shown: {
      method: definition.method,
      url: shownRequest.url.href.slice(0, 8192),
      headers: shownRequest.headers,
      body: shownRequest.body === null ? null : shownRequest.body.slice(0, 65_536),
      secretsUsed: [
        ...new Set(
          [...Object.values(definition.headers), ...Object.values(definition.query)].flatMap((param) =>
            "secret" in param ? [param.secret] : []
          )
        )
      ]
    }
  })
}
