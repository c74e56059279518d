/**
 * The built-in patterns of the `jailbreak` and `prompt-injection` rules: the
 * phrasings public jailbreak collections and prompt-injection write-ups share
 * ("ignore all previous instructions", "you are DAN", role markers smuggled
 * into text). Each has the least sensitivity it fires at: `low` keeps only
 * the unmistakable ones, `high` adds phrasings innocent text also uses. They
 * run on RE2 (linear in the text), like the author's own extra patterns, and
 * are matched ignoring case.
 */
import { Either } from "effect"
import { compileUserPattern, type UserPattern } from "../../patterns/UserPattern.js"

/** How eagerly a detector fires. */
export type Sensitivity = "low" | "medium" | "high"

const RANK: Readonly<Record<Sensitivity, number>> = { low: 0, medium: 1, high: 2 }

interface Built {
  readonly id: string
  readonly from: Sensitivity
  readonly source: string
}

/** Words that name what an agent was told. */
const ORDERS = String.raw`(?:instructions?|rules|prompts?|guidelines|directives|guardrails|restrictions|programming)`

const OVERRIDE: Built = {
  id: "override-instructions",
  from: "low",
  source: String
    .raw`\b(?:ignore|disregard|forget|override|bypass|skip)\b(?:\W+\w+){0,4}?\W+(?:previous|prior|above|earlier|all|any|your|system|original|initial)\b(?:\W+\w+){0,2}?\W+` +
    ORDERS + String.raw`\b`
}

const JAILBREAK: ReadonlyArray<Built> = [
  OVERRIDE,
  { id: "dan", from: "low", source: String.raw`\b(?:you are|you're|act as|be)\s+(?:now\s+)?DAN\b|\bdo anything now\b` },
  { id: "developer-mode", from: "low", source: String.raw`\b(?:developer|god|jailbreak|unrestricted)\s+mode\b` },
  {
    id: "unfiltered-persona",
    from: "low",
    source: String
      .raw`\b(?:act|behave|respond|answer)\s+as\s+(?:an?\s+)?(?:unfiltered|uncensored|unrestricted|unaligned|evil)\b`
  },
  {
    id: "no-rules-pretend",
    from: "medium",
    source: String
      .raw`\b(?:pretend|imagine|roleplay|role-play)\b(?:\W+\w+){0,8}?\W+(?:no|without|free of)\s+(?:any\s+)?(?:rules|restrictions|limits|filters|guidelines|morals|ethics)\b`
  },
  {
    id: "no-longer-bound",
    from: "medium",
    source: String.raw`\byou\s+(?:are|will)\s+no\s+longer\b|\bfrom\s+now\s+on\s+you\s+(?:are|will|must)\b`
  },
  {
    id: "disable-safety",
    from: "medium",
    source: String
      .raw`\b(?:disable|turn off|remove|bypass|circumvent)\s+(?:your\s+|all\s+|the\s+)?(?:safety|content|ethical)?\s*(?:filters?|guardrails|restrictions|safeguards)\b`
  },
  { id: "jailbreak-word", from: "high", source: String.raw`\bjailbr(?:eak|oken)\b` },
  { id: "hypothetical", from: "high", source: String.raw`\bhypothetically\b(?:\W+\w+){0,6}?\W+(?:how|could|would)\b` },
  { id: "opposite", from: "high", source: String.raw`\b(?:opposite|evil|shadow)\s+(?:mode|twin|version)\b` }
]

const INJECTION: ReadonlyArray<Built> = [
  OVERRIDE,
  {
    id: "role-marker",
    from: "low",
    source: String
      .raw`<\|(?:im_start|im_end|system|assistant|user|endoftext)\|>|\[/?INST\]|<<SYS>>|(?m:^\s*#{2,}\s*(?:system|instruction|new instructions?)\b)`
  },
  {
    id: "new-instructions",
    from: "low",
    source: String.raw`\b(?:new|updated|real|actual)\s+(?:instructions|system\s+prompt)\s*:`
  },
  {
    id: "reveal-prompt",
    from: "medium",
    source: String
      .raw`\b(?:reveal|print|show|repeat|output|leak)\s+(?:me\s+)?(?:your|the)\s+(?:(?:system|initial|hidden|original)\s+)?(?:prompt|instructions)\b`
  },
  {
    id: "exfiltrate",
    from: "medium",
    source: String
      .raw`\b(?:send|post|forward|upload|exfiltrate)\s+(?:the|this|all|every)\s+(?:\w+\s+){0,3}?(?:conversation|data|messages|history|secrets?|keys?)\s+to\b|!\[[^\]\n]{0,200}\]\(https?://`
  },
  { id: "system-line", from: "medium", source: String.raw`(?m:^\s*(?:system|assistant)\s*:)` },
  {
    id: "you-must-now",
    from: "high",
    source: String.raw`\byou\s+must\s+now\b|\binstead\s*,?\s+you\s+(?:will|must|should)\b`
  }
]

const compile = (source: string): UserPattern =>
  Either.getOrThrowWith(compileUserPattern(source, "i"), (reason) => new Error(`built-in pattern: ${reason}`))

const compiled = (list: ReadonlyArray<Built>) => list.map((built) => ({ ...built, pattern: compile(built.source) }))

const JAILBREAK_PATTERNS = compiled(JAILBREAK)
const INJECTION_PATTERNS = compiled(INJECTION)

/** The patterns of a detector at a sensitivity, built-in ones first, then the author's (compiled already). */
const patternsAt = (
  kind: "jailbreak" | "prompt-injection",
  sensitivity: Sensitivity
): ReadonlyArray<{ readonly id: string; readonly pattern: UserPattern }> =>
  (kind === "jailbreak" ? JAILBREAK_PATTERNS : INJECTION_PATTERNS).filter((built) =>
    RANK[built.from] <= RANK[sensitivity]
  )

/** The id of the first pattern that matches `text` (`custom-N` for the author's N-th), or undefined. */
export const injectionMatch = (
  kind: "jailbreak" | "prompt-injection",
  sensitivity: Sensitivity,
  custom: ReadonlyArray<UserPattern>,
  text: string
): string | undefined => {
  for (const built of patternsAt(kind, sensitivity)) {
    if (built.pattern.search(text, 0) !== undefined) return built.id
  }
  const index = custom.findIndex((pattern) => pattern.search(text, 0) !== undefined)
  return index === -1 ? undefined : `custom-${index + 1}`
}
