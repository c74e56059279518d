/**
 * Guardrail hits as an end user may see them (public turns): what happened
 * to their message or to the reply, in plain words, without rule names,
 * kinds or details. `warn` hits are not shown, nor rules on the agent's tool
 * calls (the user did not see the calls either); the same notice is shown once.
 */
import type { TurnGuardrailEvent, VisibleGuardrailOutcome } from "../AgentTurn.js"

const noticeOf = (event: TurnGuardrailEvent): string => {
  const input = event.stage === "input"
  switch (event.action) {
    case "redact":
      return event.kind === "max-length"
        ? input ? "Your message was shortened before the agent read it." : "The reply was shortened."
        : input
        ? "Personal data in your message was removed before the agent read it."
        : "Personal data was removed from the reply."
    case "block":
      return input ? "Your message was not passed to the agent." : "The reply was stopped."
    case "handoff":
      return "The conversation was handed to a person."
    case "warn":
      return ""
  }
}

/** The notices of a turn's hits, in order, each once. */
export const visibleOutcomes = (
  events: ReadonlyArray<TurnGuardrailEvent>
): Array<typeof VisibleGuardrailOutcome.Type> => {
  const seen = new Set<string>()
  return events.flatMap((event) => {
    if (event.action === "warn" || event.kind === "allowed-tool-domains") return []
    const notice = noticeOf(event)
    const key = `${event.stage}/${event.action}/${notice}`
    if (seen.has(key)) return []
    seen.add(key)
    return [{ stage: event.stage, action: event.action, notice }]
  })
}
