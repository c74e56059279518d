/**
 * Guardrails applied to a text at one stage, as a pure function: which rules
 * hit, what the text becomes, and whether the turn must stop. Rules run in
 * the snapshot's order (by name); a `redact` rewrites the text the rules
 * after it read. Every hit is a `TurnGuardrailEvent` that describes what was
 * found without the found text ("2 email addresses, 1 phone number"). When
 * rules that stop the turn hit, the strongest action wins (handoff over
 * block); `warn` only records.
 *
 * A text may be judged in pieces (a streamed reply): `before` is the end of
 * what was judged and shown already, read as context (the words before a
 * date that make it a birth date, a topic phrase cut in two) but never
 * rewritten; a match that begins there is redacted from where the new piece
 * begins. `shownLength` is how much text precedes the piece in all, for
 * `max-length`.
 */
import { Either } from "effect"
import { compileUserPattern, type UserPattern } from "../../patterns/UserPattern.js"
import type { TurnGuardrailEvent } from "../AgentTurn.js"
import type { AiAgentSnapshot } from "../AiAgentSnapshot.js"
import type { GuardrailAction, GuardrailStage } from "../Guardrail.js"
import type { PiiType } from "../GuardrailRule.js"
import { blockedTopicHit } from "./BlockedTopics.js"
import { detectInjection, injectionDetail } from "./InjectionDetector.js"
import type { TopicAnswer } from "./LlmTopics.js"
import { detectPii, type PiiSpan, redactPii } from "./PiiDetector.js"

/** A guardrail as a snapshot holds it. */
export type SnapshotGuardrail = AiAgentSnapshot["guardrails"][number]

/** The hit that stops the turn: the reply becomes the guardrail's message (or the agent's default wording). */
export interface GuardrailStop {
  readonly action: "block" | "handoff"
  readonly guardrailId: string
  readonly name: string
  readonly message: string | null
}

/** A text after the guardrails of a stage. */
export interface TextVerdict {
  readonly text: string
  readonly redacted: boolean
  readonly events: ReadonlyArray<TurnGuardrailEvent>
  readonly stop: GuardrailStop | null
}

/** Where a piece of a longer text stands (see the module's comment). */
export interface PieceContext {
  readonly before: string
  readonly shownLength: number
  /** The model's answers for `blocked-topics` rules with `llm` detection, by guardrail id (asked beforehand). */
  readonly topicAnswers?: ReadonlyMap<string, TopicAnswer>
}

const NONE: PieceContext = { before: "", shownLength: 0 }

const NOUNS: Readonly<Record<PiiType, readonly [string, string]>> = {
  email: ["email address", "email addresses"],
  phone: ["phone number", "phone numbers"],
  "credit-card": ["payment card number", "payment card numbers"],
  iban: ["IBAN", "IBANs"],
  ssn: ["social security number", "social security numbers"],
  "ip-address": ["IP address", "IP addresses"],
  "postal-address": ["postal address", "postal addresses"],
  "person-name": ["person's name", "people's names"],
  "date-of-birth": ["date of birth", "dates of birth"],
  passport: ["passport number", "passport numbers"],
  "api-key": ["API key", "API keys"],
  "national-id": ["national identity number", "national identity numbers"]
}

/** "2 email addresses, 1 phone number": what was found, never the found text. */
export const piiSummary = (spans: ReadonlyArray<PiiSpan>): string => {
  const counts = new Map<PiiType, number>()
  for (const span of spans) counts.set(span.type, (counts.get(span.type) ?? 0) + 1)
  return [...counts].map(([type, count]) => `${count} ${NOUNS[type][count === 1 ? 0 : 1]}`).join(", ")
}

const customPatterns = new WeakMap<SnapshotGuardrail, ReadonlyArray<UserPattern>>()

/** The author's extra patterns of a detector rule, compiled once per snapshot guardrail (they compiled when stored). */
const customOf = (guardrail: SnapshotGuardrail): ReadonlyArray<UserPattern> => {
  const known = customPatterns.get(guardrail)
  if (known !== undefined) return known
  const rule = guardrail.rule
  const patterns = rule.kind === "jailbreak" || rule.kind === "prompt-injection"
    ? rule.patterns.flatMap((source) => Either.getOrUndefined(compileUserPattern(source, "i")) ?? [])
    : []
  customPatterns.set(guardrail, patterns)
  return patterns
}

/** The enabled guardrails of a stage that read text (tool-domain rules judge tool calls, not text). */
export const textGuardrails = (
  guardrails: ReadonlyArray<SnapshotGuardrail>,
  stage: GuardrailStage
): ReadonlyArray<SnapshotGuardrail> =>
  guardrails.filter((guardrail) =>
    guardrail.enabled && guardrail.stage === stage && guardrail.rule.kind !== "allowed-tool-domains"
  )

/** One rule on the text: the detail of its hit (undefined: none) and the text after it. */
const apply = (
  guardrail: SnapshotGuardrail,
  text: string,
  context: PieceContext
): {
  readonly detail: string
  readonly text: string
  readonly changed: boolean
  /** The action taken when it is not the guardrail's own (a failed check that only warns). */
  readonly action?: GuardrailAction
} | undefined => {
  const rule = guardrail.rule
  const redact = guardrail.action === "redact"
  switch (rule.kind) {
    case "pii": {
      const whole = context.before + text
      const spans = detectPii(whole, rule.types).flatMap((span): Array<PiiSpan> =>
        span.end <= context.before.length
          ? []
          : [{ ...span, start: Math.max(0, span.start - context.before.length), end: span.end - context.before.length }]
      )
      if (spans.length === 0) return undefined
      const summary = piiSummary(spans)
      return redact
        ? { detail: `${summary} redacted`, text: redactPii(text, spans, rule.redaction), changed: true }
        : { detail: `${summary} found`, text, changed: false }
    }
    case "max-length": {
      const room = rule.maxCharacters - context.shownLength
      if (text.length <= room) return undefined
      const total = context.shownLength + text.length
      return redact
        ? {
          detail: `cut to ${rule.maxCharacters} characters`,
          text: text.slice(0, Math.max(0, room)),
          changed: true
        }
        : { detail: `${total} characters, over ${rule.maxCharacters}`, text, changed: false }
    }
    case "blocked-topics": {
      const hit = blockedTopicHit(rule, text, context.before, context.topicAnswers?.get(guardrail.id))
      return hit === undefined ? undefined : { ...hit, text, changed: false }
    }
    case "jailbreak":
    case "prompt-injection": {
      const found = detectInjection(rule.kind, rule.sensitivity, customOf(guardrail), context.before + text)
      return found === undefined ? undefined : { detail: injectionDetail(rule.kind, found), text, changed: false }
    }
    case "allowed-tool-domains":
      return undefined
  }
}

/** The guardrails of `stage` applied to `text` (or to a piece of a longer text, see `PieceContext`). */
export const checkText = (
  guardrails: ReadonlyArray<SnapshotGuardrail>,
  stage: GuardrailStage,
  text: string,
  context: PieceContext = NONE
): TextVerdict => {
  let current = text
  let redacted = false
  let stop: GuardrailStop | null = null
  const events: Array<TurnGuardrailEvent> = []
  for (const guardrail of textGuardrails(guardrails, stage)) {
    const hit = apply(guardrail, current, context)
    if (hit === undefined) continue
    const action = hit.action ?? guardrail.action
    events.push({
      guardrailId: guardrail.id,
      name: guardrail.name,
      kind: guardrail.rule.kind,
      stage,
      action,
      detail: hit.detail
    })
    if (action === "redact" && hit.changed) {
      current = hit.text
      redacted = true
    }
    if ((action === "block" || action === "handoff") && stop?.action !== "handoff") {
      if (stop === null || action === "handoff") {
        stop = { action, guardrailId: guardrail.id, name: guardrail.name, message: guardrail.message }
      }
    }
  }
  return { text: current, redacted, events, stop }
}
