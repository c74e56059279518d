/**
 * The definition of an HTTP tool: what a workspace tool, an AI agent's inline
 * HTTP tool and a flow or workflow `http` node (through a workspace tool) send.
 * Values are templates: `{{input.city}}` is replaced by the tool call's input
 * (URL, query and form values URL-encoded; a JSON body keeps the value's type
 * when the placeholder is a whole string). Secrets are referenced by name in
 * headers and query parameters and resolved server-side when the tool runs.
 */
import { Schema } from "effect"
import { JsonValue } from "../Json.js"
import { SecretName } from "./Ids.js"

/** The name an LLM or a flow calls a tool by: 1 to 64 characters of a-z, A-Z, 0-9, '_' and '-'. */
export const ToolName = Schema.String.pipe(
  Schema.pattern(/^[a-zA-Z0-9_-]{1,64}$/, {
    message: () => "a tool name is 1 to 64 characters of a-z, A-Z, 0-9, '_' and '-'"
  }),
  Schema.annotations({ identifier: "ToolName", examples: ["get_weather" as never] })
)

/**
 * The name of an argument a tool receives (a property of its input schema)
 * or, in a workflow's input mapping, a context key of an AI agent.
 */
export const ToolArgumentName = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/),
  Schema.annotations({ identifier: "ToolArgumentName", examples: ["orderId"] })
)

/** What the tool does, written for the model that decides when to call it: 1 to 2000 characters. */
export const ToolDescription = Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(2000))

const jsonSize = (value: unknown): number => JSON.stringify(value)?.length ?? 0

/** The JSON Schema of a tool's input: an object schema (free-form JSON, at most 32 KiB). */
export const ToolInputSchema = Schema.Struct(
  {
    type: Schema.Literal("object"),
    properties: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Object })),
    required: Schema.optional(Schema.Array(Schema.String).pipe(Schema.maxItems(200)))
  },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
).pipe(
  Schema.filter((schema) => jsonSize(schema) <= 32_768 || "the input schema is larger than 32 KiB as JSON"),
  Schema.annotations({ identifier: "ToolInputSchema", description: "A JSON Schema of `type: object`" })
)

const PLACEHOLDER = /\{\{([^}]*)\}\}/g
const INPUT_PATH = /^\s*input(\.[A-Za-z_][A-Za-z0-9_]*)+\s*$/

/** Whether every `{{…}}` of a template names a path of the input (`{{input.address.city}}`). */
export const placeholdersValid = (template: string): boolean =>
  Array.from(template.matchAll(PLACEHOLDER)).every((match) => INPUT_PATH.test(match[1] ?? ""))

/** A text template with `{{input.x}}` placeholders, at most `maxLength` characters. */
export const Template = (maxLength: number) =>
  Schema.String.pipe(
    Schema.maxLength(maxLength),
    Schema.filter((template) => placeholdersValid(template) || "a placeholder must be {{input.<field>}}")
  )

/** The HTTP method a tool sends. */
export const HttpMethod = Schema.Literal("GET", "POST", "PUT", "PATCH", "DELETE")
export type HttpMethod = typeof HttpMethod.Type

const authority = (url: string): string => url.replace(/^https?:\/\//, "").split(/[/?#]/)[0] ?? ""

/**
 * An absolute http(s) URL with `{{input.x}}` placeholders in its path and
 * query only: the scheme and host are fixed, and credentials go in headers.
 */
export const UrlTemplate = Template(2048).pipe(
  Schema.pattern(/^https?:\/\/[^\s]+$/, { message: () => "the URL must start with http:// or https://" }),
  Schema.filter((url) => !authority(url).includes("{{") || "the host of the URL cannot be a placeholder"),
  Schema.filter((url) => !authority(url).includes("@") || "the URL cannot carry credentials; use a header"),
  Schema.annotations({
    identifier: "UrlTemplate",
    examples: ["https://api.example.com/v1/orders/{{input.orderId}}" as never],
    // without it, the OpenAPI document drops the annotations of a schema that ends in a plain filter
    jsonSchema: {}
  })
)

/** A literal value (a template) sent as is. */
export const LiteralParam = Schema.Struct({ value: Template(4096) }).annotations({
  identifier: "LiteralParam"
})

/** A value taken from the vault by name, with an optional prefix such as `Bearer `; never returned. */
export const SecretParam = Schema.Struct({
  secret: SecretName,
  prefix: Schema.optional(Schema.String.pipe(Schema.maxLength(32)))
}).annotations({ identifier: "SecretParam" })

/** The value of a header or query parameter: a literal template, or a reference to a vault secret. */
export const ParamValue = Schema.Union(LiteralParam, SecretParam).annotations({ identifier: "ParamValue" })
export type ParamValue = typeof ParamValue.Type

const FORBIDDEN_HEADERS = new Set(["host", "content-length", "transfer-encoding", "connection", "upgrade", "te"])

/** An HTTP header name (an RFC 9110 token). */
export const HeaderName = Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/))

/** Request headers by name: at most 32, no hop-by-hop or framing headers, no duplicates ignoring case. */
export const ToolHeaders = Schema.Record({ key: HeaderName, value: ParamValue }).pipe(
  Schema.filter((headers) => {
    const names = Object.keys(headers).map((name) => name.toLowerCase())
    if (names.length > 32) return "at most 32 headers"
    if (new Set(names).size !== names.length) return "a header is given twice (names ignore case)"
    const forbidden = names.find((name) => FORBIDDEN_HEADERS.has(name))
    return forbidden === undefined || `the ${forbidden} header is set by the server`
  }),
  Schema.annotations({ identifier: "ToolHeaders" })
)

/** Query parameters added to the URL by name: at most 32. */
export const ToolQuery = Schema.Record({
  key: Schema.String.pipe(Schema.pattern(/^[^\s&=#]{1,128}$/)),
  value: ParamValue
})
  .pipe(
    Schema.filter((query) => Object.keys(query).length <= 32 || "at most 32 query parameters"),
    Schema.annotations({ identifier: "ToolQuery" })
  )

/** A JSON body: any JSON value whose strings may hold placeholders (at most 64 KiB). */
export const JsonBody = Schema.Struct({
  kind: Schema.Literal("json"),
  template: JsonValue.pipe(
    Schema.filter((template) => jsonSize(template) <= 65_536 || "the body template is larger than 64 KiB as JSON")
  )
}).annotations({ identifier: "JsonBody" })

/** A form body (`application/x-www-form-urlencoded`): fields by name, at most 64. */
export const FormBody = Schema.Struct({
  kind: Schema.Literal("form"),
  fields: Schema.Record({ key: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(128)), value: Template(4096) })
    .pipe(Schema.filter((fields) => Object.keys(fields).length <= 64 || "at most 64 form fields"))
}).annotations({ identifier: "FormBody" })

/** A text body of the given media type (XML, plain text, …). */
export const TextBody = Schema.Struct({
  kind: Schema.Literal("text"),
  contentType: Schema.String.pipe(Schema.pattern(/^[a-z]+\/[a-zA-Z0-9.+-]+(\s*;.{1,100})?$/)),
  template: Template(65_536)
}).annotations({ identifier: "TextBody" })

/** The request body a tool sends; GET and DELETE tools send none. */
export const ToolRequestBody = Schema.Union(JsonBody, FormBody, TextBody).annotations({ identifier: "ToolRequestBody" })
export type ToolRequestBody = typeof ToolRequestBody.Type

/** How long a call may take, in seconds (1 to 60). */
export const ToolTimeoutSeconds = Schema.Number.pipe(Schema.int(), Schema.between(1, 60))

/** The largest response body read, in bytes (1 to 5 MiB); a larger one fails the call. */
export const MaxResponseBytes = Schema.Number.pipe(Schema.int(), Schema.between(1, 5_242_880))

/** A host a call (or a redirect) may reach: `api.example.com`, or `*.example.com` for its subdomains. */
export const AllowedDomain = Schema.String.pipe(
  Schema.pattern(/^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/),
  Schema.maxLength(253),
  Schema.annotations({ identifier: "AllowedDomain", examples: ["api.example.com"] })
)

/** The fields of an HTTP tool definition, to spread into the models that hold one. */
export const httpToolDefinitionFields = {
  inputSchema: ToolInputSchema,
  method: HttpMethod,
  url: UrlTemplate,
  headers: Schema.optionalWith(ToolHeaders, { default: () => ({}) }),
  query: Schema.optionalWith(ToolQuery, { default: () => ({}) }),
  body: Schema.optionalWith(Schema.NullOr(ToolRequestBody), { default: () => null }),
  timeoutSeconds: Schema.optionalWith(ToolTimeoutSeconds, { default: () => 10 }),
  maxResponseBytes: Schema.optionalWith(MaxResponseBytes, { default: () => 1_048_576 }),
  /** Hosts the call may reach besides the URL's own host (e.g. after a redirect); empty: only that host. */
  allowedDomains: Schema.optionalWith(Schema.Array(AllowedDomain).pipe(Schema.maxItems(20)), { default: () => [] })
}

/** An HTTP tool definition: input schema, request template, limits and reachable hosts. */
export const HttpToolDefinition = Schema.Struct(httpToolDefinitionFields).annotations({
  identifier: "HttpToolDefinition"
})
export type HttpToolDefinition = typeof HttpToolDefinition.Type
