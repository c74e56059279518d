/**
 * The `allowed-tool-domains` rules on a tool call, before it runs: the host
 * of the tool's URL (fixed: a URL template's host cannot be a placeholder)
 * must be one a rule names (`api.example.com`, or `*.example.com` for its
 * subdomains). A call to another host is blocked by a `block` or `handoff`
 * rule (the model reads the refusal as the call's error; the turn goes on)
 * and recorded by a `warn` rule. Redirects stay bound by the tool's own
 * `allowedDomains`, checked by the tool-call service.
 */
import type { TurnGuardrailEvent } from "../AgentTurn.js"
import type { SnapshotGuardrail } from "./GuardrailCheck.js"

/** What the tool-domain rules say of a call: their hits, and the refusal the model reads (null: it runs). */
export interface ToolCallVerdict {
  readonly events: ReadonlyArray<TurnGuardrailEvent>
  readonly blocked: string | null
}

/** The host of an absolute URL (template), lower-cased; empty when it has none. */
export const hostOf = (url: string): string => {
  const authority = url.replace(/^https?:\/\//i, "").split(/[/?#]/)[0] ?? ""
  const host = authority.startsWith("[") ? authority.slice(0, authority.indexOf("]") + 1) : authority.split(":")[0]
  return (host ?? "").toLowerCase()
}

/** Whether `host` is `domain`, or under it for `*.domain`. */
export const domainAllows = (domain: string, host: string): boolean =>
  domain.startsWith("*.") ? host.endsWith(domain.slice(1)) && host.length > domain.length - 1 : host === domain

/** The verdict of the enabled `allowed-tool-domains` rules on a call to `url`. */
export const toolCallVerdict = (guardrails: ReadonlyArray<SnapshotGuardrail>, url: string): ToolCallVerdict => {
  const host = hostOf(url)
  const events: Array<TurnGuardrailEvent> = []
  let blocked: string | null = null
  for (const guardrail of guardrails) {
    const rule = guardrail.rule
    if (!guardrail.enabled || rule.kind !== "allowed-tool-domains") continue
    if (rule.domains.some((domain) => domainAllows(domain, host))) continue
    events.push({
      guardrailId: guardrail.id,
      name: guardrail.name,
      kind: rule.kind,
      stage: guardrail.stage,
      action: guardrail.action,
      detail: `a call to ${host} is outside the allowed domains`
    })
    if (guardrail.action !== "warn" && blocked === null) {
      blocked = guardrail.message ?? `A guardrail blocked this call: ${host} is not an allowed domain.`
    }
  }
  return { events, blocked }
}
