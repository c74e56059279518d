/**
 * The rules of a guardrail that span its fields (`AiAgentGuardrailInvalid`):
 * `jailbreak` and `prompt-injection` read the end user's message, so they run
 * at `input`; `allowed-tool-domains` judges the agent's tool calls, so it runs
 * at `output`; only `pii` and `max-length` can rewrite text (`redact`); every
 * extra pattern compiles on the linear-time engine; a `blocked-topics` rule's
 * topics fit its detection (`BlockedTopics`).
 */
import type { FieldProblem } from "../../FieldProblem.js"
import { patternRefusal } from "../../patterns/UserPattern.js"
import type { GuardrailAction, GuardrailStage } from "../Guardrail.js"
import type { GuardrailKind, GuardrailRule } from "../GuardrailRule.js"
import { blockedTopicProblems } from "./BlockedTopics.js"

/** The one stage a kind runs at, for kinds bound to one. */
export const ONLY_STAGE: Partial<Record<GuardrailKind, GuardrailStage>> = {
  jailbreak: "input",
  "prompt-injection": "input",
  "allowed-tool-domains": "output"
}

/** The kinds whose hits can be rewritten away. */
export const REDACTABLE: ReadonlySet<GuardrailKind> = new Set(["pii", "max-length"])

/** What a guardrail to be stored breaks, with the field each problem concerns. */
export const guardrailProblems = (
  guardrail: { readonly stage: GuardrailStage; readonly rule: GuardrailRule; readonly action: GuardrailAction }
): ReadonlyArray<FieldProblem> => {
  const { action, rule, stage } = guardrail
  const problems: Array<FieldProblem> = []
  const only = ONLY_STAGE[rule.kind]
  if (only !== undefined && only !== stage) {
    problems.push({ field: "stage", message: `a ${rule.kind} rule runs at the ${only} stage only` })
  }
  if (action === "redact" && !REDACTABLE.has(rule.kind)) {
    problems.push({ field: "action", message: `a ${rule.kind} rule cannot redact; only pii and max-length can` })
  }
  if (rule.kind === "blocked-topics") problems.push(...blockedTopicProblems(rule, stage))
  if (rule.kind === "jailbreak" || rule.kind === "prompt-injection") {
    rule.patterns.forEach((pattern, index) => {
      const refusal = patternRefusal(pattern, "i")
      if (refusal !== undefined) problems.push({ field: `rule.patterns.${index}`, message: refusal })
    })
  }
  return problems
}
