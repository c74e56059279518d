/**
 * An agent's web embed, computed: the widget settings as the live widget
 * applies them (embed settings resolved; greeting and prompts of the live
 * version, or of the draft before the first publish), the public turn URL and
 * the `<script>` snippet, both with `{{PUBLIC_TOKEN}}` where the token goes.
 */
import { WIDGET_PATH } from "../../embed/WidgetScript.js"
import type { AiAgent } from "./AiAgent.js"
import { type AiAgentEmbed, PUBLIC_TOKEN_PLACEHOLDER } from "./AiAgentEmbed.js"
import type { AiAgentSnapshot } from "./AiAgentSnapshot.js"

const escapeAttribute = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

/** The embed of `agent` under `publicUrl`, its widget text from `live` (the live snapshot) or the draft. */
export const agentEmbed = (
  publicUrl: string,
  agent: AiAgent,
  live: AiAgentSnapshot | undefined
): typeof AiAgentEmbed.Encoded & { readonly tokenPlaceholder: typeof PUBLIC_TOKEN_PLACEHOLDER } => {
  const base = publicUrl.replace(/\/+$/, "")
  const conversation = live?.conversation ?? agent.conversation
  const widget = {
    title: agent.embed.title ?? live?.name ?? agent.name,
    primaryColor: agent.embed.primaryColor,
    position: agent.embed.position,
    avatarUrl: agent.embed.avatarUrl ?? null,
    allowedOrigins: [...agent.embed.allowedOrigins],
    greeting: conversation.greeting ?? null,
    suggestedPrompts: [...conversation.suggestedPrompts]
  }
  const scriptUrl = `${base}${WIDGET_PATH}`
  const attributes = [
    `src="${escapeAttribute(scriptUrl)}"`,
    `data-agent-token="${PUBLIC_TOKEN_PLACEHOLDER}"`,
    `data-title="${escapeAttribute(widget.title)}"`,
    `data-primary-color="${escapeAttribute(widget.primaryColor)}"`,
    `data-position="${widget.position}"`,
    ...(widget.avatarUrl === null ? [] : [`data-avatar-url="${escapeAttribute(widget.avatarUrl)}"`]),
    ...(widget.greeting === null ? [] : [`data-greeting="${escapeAttribute(widget.greeting)}"`]),
    "async"
  ]
  return {
    live: agent.liveVersion !== null,
    liveVersion: agent.liveVersion,
    publicTokenHint: agent.publicTokenHint,
    tokenPlaceholder: PUBLIC_TOKEN_PLACEHOLDER,
    turnUrl: `${base}/v1/public/ai-agents/${PUBLIC_TOKEN_PLACEHOLDER}/turn`,
    scriptUrl,
    snippet: `<script ${attributes.join(" ")}></script>`,
    widget
  }
}
