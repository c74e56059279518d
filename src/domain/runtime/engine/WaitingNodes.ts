/**
 * What a waiting node does with the user's message.
 *
 * A question validates it (see `AnswerValidation`). A valid answer is stored
 * and follows the `option` edge of the chosen value (choice questions) when
 * there is one, else `answered`. An invalid one counts an attempt: at
 * `maxAttempts` the question follows `fallback`, before that it says its
 * `reprompt` (or the default sentence; a choice repeats its quick replies)
 * and waits again.
 *
 * An intent router reads the message as one of its intents. A payload equal
 * to one of them chooses it with confidence 1; any other input (a payload
 * too) is classified as text. The best intent wins when its confidence is
 * above 0 and at least the router's `threshold` (else the Assistant's), and
 * follows its `intent` edge; otherwise the message is out of scope and
 * follows `fallback`. The matched intent's slots are extracted from the text
 * (see `SlotExtraction`) and those the router maps to variables are stored;
 * a slot the message does not fill leaves its variable as it was. The
 * prediction (the top 5 with confidence above 0) is the step's `nlu`, and the
 * message with its intent, confidence and slots is what later expressions of
 * the step read as `input`.
 */
import { Effect } from "effect"
import { DEFAULT_THRESHOLD } from "../../nlu/OutOfScopeThreshold.js"
import type { TurnInput } from "../Turn.js"
import { defaultReprompt, inputText, validateAnswer } from "./AnswerValidation.js"
import { roundConfidence } from "./Classifier.js"
import { ask, type NodeOf } from "./NodeArrival.js"
import { follow, type Run, setVariable, type Transition } from "./Run.js"
import { extractSlots } from "./SlotExtraction.js"
import { renderTemplate } from "./Templates.js"

/** A question's answer to the user's input, after `attempts` invalid answers. */
export const answerQuestion = (run: Run, node: NodeOf<"question">, attempts: number, input: TurnInput): Transition => {
  const { maxAttempts, reprompt, validation, variable } = node.data
  const program = run.program
  const value = validateAnswer(validation, input, { formats: program.formats, pattern: program.pattern })
  if (value !== undefined) {
    setVariable(run, variable, value)
    return validation.kind === "choice" && typeof value === "string"
      ? follow({ kind: "option", option: value }, { kind: "answered" })
      : follow({ kind: "answered" })
  }
  const failed = attempts + 1
  if (failed >= maxAttempts) return follow({ kind: "fallback" })
  ask(
    run,
    node,
    reprompt === undefined ? defaultReprompt(validation, program.formats) : renderTemplate(reprompt, run.variables)
  )
  return { _tag: "Wait", attempts: failed }
}

/** An intent router's reading of the user's input. */
export const routeIntent = (run: Run, node: NodeOf<"intent-router">, input: TurnInput): Effect.Effect<Transition> =>
  Effect.gen(function*() {
    const { intents, slotVariables, threshold } = node.data
    const program = run.program
    const text = inputText(input)
    const chosen = "payload" in input && intents.includes(input.payload) ? input.payload : undefined
    const scores = chosen === undefined ? yield* program.classifier.classify(text, intents) : [
      { intent: chosen, confidence: 1 }
    ]
    const ranking = scores
      .map(({ confidence, intent }) => ({ intent, confidence: roundConfidence(confidence) }))
      .filter((score) => score.confidence > 0)
      .sort((a, b) => b.confidence - a.confidence)
      .slice(0, 5)
    const best = ranking[0]
    const limit = best === undefined ? 1 : threshold ?? program.nluThreshold ??
      (program.classifier.threshold === undefined ? DEFAULT_THRESHOLD : yield* program.classifier.threshold)
    const matched = best !== undefined && best.confidence >= limit ? best.intent : null
    const slots = matched === null || chosen !== undefined
      ? {}
      : extractSlots(text, program.intent(matched)?.slots ?? [], { formats: program.formats, pattern: program.pattern })
    for (const [slot, variable] of Object.entries(slotVariables)) {
      if (Object.hasOwn(slots, slot)) setVariable(run, variable, slots[slot]!)
    }
    const confidence = best?.confidence ?? 0
    run.nlu = { intent: matched, confidence, ranking, slots }
    run.input = { ...run.input, intent: matched, confidence, slots }
    return matched === null ? follow({ kind: "fallback" }) : follow({ kind: "intent", intent: matched })
  })
