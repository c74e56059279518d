/**
 * What a guardrail checks, by `kind`. Every rule runs without a network
 * except `blocked-topics` with `detection: llm`, which asks the agent's LLM.
 */
import { Schema } from "effect"
import { AllowedDomain } from "../workspace/HttpToolDefinition.js"

/** A kind of personal data the `pii` rule detects. */
export const PiiType = Schema.Literal(
  "email",
  "phone",
  "credit-card",
  "iban",
  "ssn",
  "ip-address",
  "postal-address",
  "person-name",
  "date-of-birth",
  "passport",
  "api-key"
).annotations({ identifier: "PiiType" })
export type PiiType = typeof PiiType.Type

/**
 * How detected data is redacted: a typed placeholder (`[EMAIL]`), a mask that
 * keeps the shape (`j***@e******.com`), a short stable hash (`[EMAIL:3f9a1c]`,
 * so one value matches itself across a conversation), or removal.
 */
export const PiiRedaction = Schema.Literal("placeholder", "mask", "hash", "remove").annotations({
  identifier: "PiiRedaction"
})
export type PiiRedaction = typeof PiiRedaction.Type

/** How eagerly a pattern detector fires: `high` catches more and errs towards false alarms. */
export const DetectorSensitivity = Schema.Literal("low", "medium", "high").annotations({
  identifier: "DetectorSensitivity"
})

/** An extra regular expression (JavaScript syntax, matched ignoring case); it must compile. */
export const GuardrailPattern = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500))

const unique = <A>(items: ReadonlyArray<A>) => new Set(items).size === items.length || "an item is listed twice"

/** Detect personal data of the given types. */
export const PiiRule = Schema.Struct({
  kind: Schema.Literal("pii"),
  types: Schema.Array(PiiType).pipe(Schema.minItems(1), Schema.filter(unique)),
  redaction: Schema.optionalWith(PiiRedaction, { default: () => "placeholder" as const })
}).annotations({ identifier: "PiiRule" })

/**
 * Refuse talk about the given topics, detected by `keywords` (each topic is
 * a phrase matched as words, ignoring case) or by the agent's `llm`.
 */
export const BlockedTopicsRule = Schema.Struct({
  kind: Schema.Literal("blocked-topics"),
  topics: Schema.Array(Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(200))).pipe(
    Schema.minItems(1),
    Schema.maxItems(100),
    Schema.filter(unique)
  ),
  detection: Schema.optionalWith(Schema.Literal("keywords", "llm"), { default: () => "keywords" as const })
}).annotations({ identifier: "BlockedTopicsRule" })

const detectorFields = {
  sensitivity: Schema.optionalWith(DetectorSensitivity, { default: () => "medium" as const }),
  /** Patterns added to the built-in ones. */
  patterns: Schema.optionalWith(Schema.Array(GuardrailPattern).pipe(Schema.maxItems(50)), { default: () => [] })
}

/** Detect attempts to talk the agent out of its instructions ("ignore all previous rules", role-play escapes). */
export const JailbreakRule = Schema.Struct({
  kind: Schema.Literal("jailbreak"),
  ...detectorFields
}).annotations({ identifier: "JailbreakRule" })

/** Detect instructions smuggled into content the agent reads: the user's message and, optionally, tool results. */
export const PromptInjectionRule = Schema.Struct({
  kind: Schema.Literal("prompt-injection"),
  ...detectorFields,
  scanToolResults: Schema.optionalWith(Schema.Boolean, { default: () => true })
}).annotations({ identifier: "PromptInjectionRule" })

/** Let tool calls reach only these hosts (`api.example.com`, `*.example.com`); any other call is stopped. */
export const AllowedToolDomainsRule = Schema.Struct({
  kind: Schema.Literal("allowed-tool-domains"),
  domains: Schema.Array(AllowedDomain).pipe(Schema.minItems(1), Schema.maxItems(100), Schema.filter(unique))
}).annotations({ identifier: "AllowedToolDomainsRule" })

/** Limit a message's length in characters; `redact` cuts it there. */
export const MaxLengthRule = Schema.Struct({
  kind: Schema.Literal("max-length"),
  maxCharacters: Schema.Number.pipe(Schema.int(), Schema.between(1, 100_000))
}).annotations({ identifier: "MaxLengthRule" })

/** The check a guardrail makes, by `kind`. */
export const GuardrailRule = Schema.Union(
  PiiRule,
  BlockedTopicsRule,
  JailbreakRule,
  PromptInjectionRule,
  AllowedToolDomainsRule,
  MaxLengthRule
).annotations({ identifier: "GuardrailRule" })
export type GuardrailRule = typeof GuardrailRule.Type

/** The kinds of guardrail rule. */
export const GuardrailKind = Schema.Literal(
  "pii",
  "blocked-topics",
  "jailbreak",
  "prompt-injection",
  "allowed-tool-domains",
  "max-length"
).annotations({ identifier: "GuardrailKind" })
export type GuardrailKind = typeof GuardrailKind.Type
