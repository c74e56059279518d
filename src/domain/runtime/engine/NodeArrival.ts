/**
 * What each node does when the engine arrives at it: say something, decide
 * where to go, set a variable, or stop to wait for the user. Messages with a
 * template render it against the variables as they are on arrival (see
 * `Templates`). A message node shows its image first, then its text (with
 * its buttons under it), its delay on the first of them; when its text
 * renders empty it says no text (buttons still show, without text). An end or
 * handoff message that renders empty is left out of the message.
 */
import { Effect } from "effect"
import type { FlowNode } from "../../assistants/FlowNode.js"
import type { BotMessage } from "../BotMessage.js"
import { buttonsMessage, endMessage, handoffMessage, imageMessage, textMessage, withDelay } from "./BotMessages.js"
import { evaluateExpression } from "./Expressions.js"
import { isTruthy, toJson } from "./ExpressionValues.js"
import { follow, type Run, scopeOf, setVariable, type Transition } from "./Run.js"
import { renderTemplate } from "./Templates.js"

/** The node of one type. */
export type NodeOf<T extends FlowNode["type"]> = Extract<FlowNode, { readonly type: T }>

const render = (run: Run, template: string | undefined): string | undefined => {
  if (template === undefined) return undefined
  const text = renderTemplate(template, run.variables)
  return text.trim() === "" ? undefined : text
}

/** A message node's parts, image first (buttons belong under the text); its delay goes on the first part only. */
const say = (run: Run, node: NodeOf<"message">): void => {
  const { buttons, delayMs, image, text } = node.data
  const rendered = render(run, text)
  const parts: Array<BotMessage> = []
  if (image !== undefined) parts.push(imageMessage(node.id, image.url, image.alt))
  if (buttons.length > 0) parts.push(buttonsMessage(node.id, rendered, "buttons", buttons))
  else if (rendered !== undefined) parts.push(textMessage(node.id, rendered))
  parts.forEach((message, index) => run.messages.push(index === 0 ? withDelay(message, delayMs) : message))
}

/** Says a question's prompt (a choice as quick replies) or, after an invalid answer, its reprompt. */
export const ask = (run: Run, node: NodeOf<"question">, text: string): void => {
  const validation = node.data.validation
  run.messages.push(
    validation.kind === "choice"
      ? buttonsMessage(
        node.id,
        text,
        "quick-replies",
        validation.options.map((option) => ({ label: option.label, payload: option.value }))
      )
      : textMessage(node.id, text)
  )
}

const decide = (run: Run, node: NodeOf<"condition">): Effect.Effect<Transition> =>
  Effect.gen(function*() {
    for (const { expression, key } of node.data.cases) {
      const result = yield* evaluateExpression(run.program.expression(expression), scopeOf(run), run)
      if (result._tag === "Right" && isTruthy(result.right)) return follow({ kind: "case", case: key })
    }
    return follow({ kind: "fallback" })
  })

const assign = (run: Run, node: NodeOf<"set-variable">): Effect.Effect<Transition> =>
  Effect.gen(function*() {
    const data = node.data
    if ("value" in data) {
      setVariable(run, data.variable, data.value)
    } else {
      const result = yield* evaluateExpression(run.program.expression(data.expression), scopeOf(run), run)
      setVariable(run, data.variable, result._tag === "Right" ? toJson(result.right) ?? null : null)
    }
    return follow({ kind: "next" })
  })

/** Runs a node the engine has just arrived at. */
export const arrive = (run: Run, node: FlowNode): Effect.Effect<Transition> => {
  switch (node.type) {
    case "start":
      return Effect.succeed(follow({ kind: "next" }))
    case "message":
      say(run, node)
      return Effect.succeed(follow({ kind: "next" }))
    case "question":
      ask(run, node, renderTemplate(node.data.prompt, run.variables))
      return Effect.succeed({ _tag: "Wait", attempts: 0 })
    case "intent-router":
      return Effect.succeed({ _tag: "Wait", attempts: 0 })
    case "condition":
      return decide(run, node)
    case "set-variable":
      return assign(run, node)
    case "http":
    case "ai":
      // Their providers do not exist yet: the call fails at once.
      return Effect.succeed(follow({ kind: "error" }))
    case "handoff": {
      const target = node.data.target
      const queue = target.kind === "connection" ? target.queue : undefined
      run.messages.push(handoffMessage(node.id, render(run, node.data.message), queue))
      return Effect.succeed({ _tag: "Finish", status: "handed-off" })
    }
    case "jump": {
      const target = node.data.target
      const nodeId = target.kind === "node" ? target.nodeId : run.program.subflowEntry(target.subflowId)
      return Effect.succeed({ _tag: "GoTo", nodeId })
    }
    case "end":
      run.messages.push(endMessage(node.id, render(run, node.data.message), node.data.outcome))
      return Effect.succeed({ _tag: "Finish", status: "ended" })
  }
}
