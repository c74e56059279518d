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
  "api-key",
  "national-id"
).annotations({
  identifier: "PiiType",
  description: "A kind of personal data. `ssn`: US social security numbers. `national-id`: national identity " +
    "numbers validated by their check digit, date and allocation rules: UK NHS and National Insurance numbers, " +
    "Netherlands BSN, Spain DNI and NIE, France NIR, Italy codice fiscale, Belgium national number, Sweden " +
    "personnummer, Finland HETU, Denmark CPR, Poland PESEL, Brazil CPF, India Aadhaar, China resident identity " +
    "card, Canada SIN, Germany Steuer-IdNr; bare digit runs that a checksum alone cannot single out need a cue " +
    "word nearby (\"BSN\", \"PESEL\", \"national insurance\")."
})
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

/** A blocked topic by keywords: a phrase matched as words. */
export const TopicPhrase = Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(200))

/** An example message of a blocked topic: 1 to 300 characters. */
export const TopicExample = Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(300))

/** A blocked topic described by what users write about it: its name and 5 to 50 example messages. */
export const TopicByExamples = Schema.Struct({
  name: TopicPhrase,
  examples: Schema.Array(TopicExample).pipe(Schema.minItems(5), Schema.maxItems(50), Schema.filter(unique))
}).annotations({ identifier: "TopicByExamples" })

const topicName = (topic: typeof TopicPhrase.Type | typeof TopicByExamples.Type) =>
  typeof topic === "string" ? topic : topic.name

/**
 * Refuse talk about the given topics, detected by `keywords` (each topic is
 * a phrase matched as words, ignoring case), by `examples` (each topic is
 * `{name, examples}`; a classifier of the built-in NLU trained on them
 * against ordinary messages, firing as `sensitivity` says) or by the agent's
 * `llm` (input stage only; topics as phrases or with examples, shown to the
 * model). `failClosed` (llm only, default false): when the model fails or
 * its answer cannot be read, the message is let through with a `warn` event
 * saying so; with `failClosed` it is treated as on a blocked topic instead.
 */
export const BlockedTopicsRule = Schema.Struct({
  kind: Schema.Literal("blocked-topics"),
  topics: Schema.Array(Schema.Union(TopicPhrase, TopicByExamples)).pipe(
    Schema.minItems(1),
    Schema.maxItems(100),
    Schema.filter((topics) => unique(topics.map(topicName)))
  ),
  detection: Schema.optionalWith(
    Schema.Literal("keywords", "examples", "llm").annotations({
      description: "`keywords` (default): topics are phrases matched as words. `examples`: topics are " +
        "{name, examples} (5 to 50 examples each, at most 20 topics and 500 examples), a classifier of the " +
        "built-in NLU trained on them. `llm`: the agent's model judges each message (input stage only)."
    }),
    { default: () => "keywords" as const }
  ),
  /** `examples` only: how eagerly the classifier fires (default `medium`). */
  sensitivity: Schema.optional(DetectorSensitivity).annotations({
    description: "`examples` detection only: the classifier's confidence threshold, `low` 0.6, `medium` " +
      "(default) 0.45, `high` 0.3; higher sensitivity blocks more and errs towards false alarms."
  }),

  /** `llm` only: treat a failed or unreadable model answer as a hit (default false: let through, warn). */
  failClosed: Schema.optional(
    Schema.Boolean.annotations({
      description: "`llm` detection only. When the model cannot be called, fails, times out (20 s) or answers " +
        "something that is not {\"topic\": <a listed name or null>}: false (default) lets the message through " +
        "and records a `warn` event saying why; true treats it as on a blocked topic, so the rule's action applies."
    })
  )
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
