/**
 * The `blocked-topics` rule on a text, by its detection: `keywords`
 * (`TopicMatch`), `examples` (`TopicClassifier`) or `llm` (the model's
 * answer, asked once per message before the rules run, `LlmTopics`); and the
 * rule's own cross-field checks.
 *
 * A text judged in pieces (a streamed reply) reads what came before as
 * context: the last 20 words for keywords (a phrase cut in two), the
 * unfinished sentence for examples (the classifier reads sentences).
 *
 * `llm` runs at the input stage only: at the output stage it would ask the
 * model again for every piece of a streamed reply. When the model failed or
 * its answer could not be read, the rule does not stop the message: it
 * records a `warn` event saying so; with `failClosed` it acts as on a hit.
 */
import type { FieldProblem } from "../../FieldProblem.js"
import type { GuardrailAction, GuardrailStage } from "../Guardrail.js"
import type { BlockedTopicsRule } from "../GuardrailRule.js"
import type { TopicAnswer } from "./LlmTopics.js"
import { topicByExamples } from "./TopicClassifier.js"
import { topicIn, wordsOf } from "./TopicMatch.js"

type Rule = typeof BlockedTopicsRule.Type

/** The most topics a rule by examples may list, and the most examples in all. */
export const MAX_EXAMPLE_TOPICS = 20
export const MAX_EXAMPLES = 500

/** A hit of the rule: what was found, and the action taken when it is not the guardrail's own. */
export interface TopicHit {
  readonly detail: string
  readonly action?: GuardrailAction
}

/** The end of `before` that is still the sentence a piece continues. */
const openSentence = (before: string): string => {
  const tail = before.slice(-300)
  return tail.slice(tail.search(/[^.!?;:\n]*$/u))
}

/**
 * Whether `text` (a piece after `before`) is on one of the rule's topics.
 * `answer` is the model's, for `llm` (absent: not asked, so no hit).
 */
export const blockedTopicHit = (
  rule: Rule,
  text: string,
  before: string,
  answer: TopicAnswer | undefined
): TopicHit | undefined => {
  switch (rule.detection) {
    case "keywords": {
      const tail = before === "" ? [] : wordsOf(before).slice(-20)
      const names = rule.topics.flatMap((topic) => typeof topic === "string" ? [topic] : [])
      const topic = topicIn([...tail, ...wordsOf(text)], names)
      return topic === undefined ? undefined : { detail: `blocked topic "${topic}"` }
    }
    case "examples": {
      const found = topicByExamples(rule.topics, rule.sensitivity ?? "medium", openSentence(before) + text)
      return found === undefined
        ? undefined
        : { detail: `blocked topic "${found.topic}" (confidence ${found.confidence.toFixed(2)})` }
    }
    case "llm": {
      if (answer === undefined || answer._tag === "OffTopic") return undefined
      if (answer._tag === "OnTopic") return { detail: `blocked topic "${answer.topic}" (by the model)` }
      return rule.failClosed === true
        ? { detail: `topic check failed (${answer.reason}); applied as a hit (failClosed)` }
        : { detail: `topic check failed (${answer.reason}); let through`, action: "warn" }
    }
  }
}

/** What the rule breaks, as stored at `stage`. */
export const blockedTopicProblems = (rule: Rule, stage: GuardrailStage): ReadonlyArray<FieldProblem> => {
  const problems: Array<FieldProblem> = []
  if (rule.detection === "keywords") {
    rule.topics.forEach((topic, index) => {
      if (typeof topic !== "string") {
        problems.push({
          field: `rule.topics.${index}`,
          message: "keyword detection takes phrases; a topic with examples needs detection examples or llm"
        })
      }
    })
  }
  if (rule.detection === "examples") {
    rule.topics.forEach((topic, index) => {
      if (typeof topic === "string") {
        problems.push({
          field: `rule.topics.${index}`,
          message: "example detection takes topics as {name, examples} with at least 5 examples each"
        })
      }
    })
    if (rule.topics.length > MAX_EXAMPLE_TOPICS) {
      problems.push({ field: "rule.topics", message: `example detection takes at most ${MAX_EXAMPLE_TOPICS} topics` })
    }
    const examples = rule.topics.reduce(
      (sum, topic) => sum + (typeof topic === "string" ? 0 : topic.examples.length),
      0
    )
    if (examples > MAX_EXAMPLES) {
      problems.push({
        field: "rule.topics",
        message: `example detection takes at most ${MAX_EXAMPLES} examples in all`
      })
    }
  }
  if (rule.detection === "llm" && stage === "output") {
    problems.push({
      field: "rule.detection",
      message: "llm detection runs at the input stage only: at the output stage it would ask the model again " +
        "for every piece of a streamed reply; use keywords or examples there"
    })
  }
  if (rule.sensitivity !== undefined && rule.detection !== "examples") {
    problems.push({ field: "rule.sensitivity", message: "sensitivity applies to example detection only" })
  }
  if (rule.failClosed !== undefined && rule.detection !== "llm") {
    problems.push({ field: "rule.failClosed", message: "failClosed applies to llm detection only" })
  }
  return problems
}
