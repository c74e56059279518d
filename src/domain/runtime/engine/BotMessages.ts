/**
 * The messages the engine emits, built in one place so that each carries the
 * node that produced it and leaves out the optional fields it has no value
 * for (the contract's optional fields are absent, never `undefined`).
 */
import type { FlowNodeId } from "../../assistants/FlowIds.js"
import type { FlowButton } from "../../assistants/FlowNodeData.js"
import type { BotMessage } from "../BotMessage.js"

const optional = <K extends string, V>(key: K, value: V | undefined) =>
  (value === undefined ? {} : { [key]: value }) as { readonly [P in K]?: V }

/** Plain text. */
export const textMessage = (nodeId: FlowNodeId, text: string): BotMessage => ({ type: "text", text, nodeId })

/** Optional text with buttons (they stay) or quick replies (they go once one is used). */
export const buttonsMessage = (
  nodeId: FlowNodeId,
  text: string | undefined,
  display: "buttons" | "quick-replies",
  buttons: ReadonlyArray<typeof FlowButton.Type>
): BotMessage => ({ type: "buttons", display, buttons, nodeId, ...optional("text", text) })

/** An image by URL. */
export const imageMessage = (nodeId: FlowNodeId, url: string, alt: string | undefined): BotMessage => ({
  type: "image",
  url,
  nodeId,
  ...optional("alt", alt)
})

/** The conversation is over, with an optional last text and outcome. */
export const endMessage = (nodeId: FlowNodeId, text: string | undefined, outcome: string | undefined): BotMessage => ({
  type: "end",
  nodeId,
  ...optional("text", text),
  ...optional("outcome", outcome)
})

/** The conversation goes to a human. */
export const handoffMessage = (
  nodeId: FlowNodeId,
  text: string | undefined,
  queue: string | undefined
): BotMessage => ({
  type: "handoff",
  nodeId,
  ...optional("text", text),
  ...optional("queue", queue)
})

/** The message, shown after "typing…" for `delayMs` when there is one. */
export const withDelay = (message: BotMessage, delayMs: number | undefined): BotMessage =>
  delayMs === undefined ? message : { ...message, delayMs }
