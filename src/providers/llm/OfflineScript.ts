/**
 * The offline model's script: given the conversation (and the tools on
 * offer), what it answers. Tests provide their own (`Layer.succeed(OfflineScript, ...)`);
 * the default lets the embedded install demo an agent with no key: it echoes
 * the user, calls a tool when asked with `/call <tool> <json>`, and reports a
 * tool's result.
 */
import type { Prompt } from "@effect/ai"
import { Context } from "effect"

/** What the offline model is asked: the conversation, the tools it may call and the model name configured. */
export interface OfflineTurn {
  readonly prompt: Prompt.Prompt
  readonly tools: ReadonlyArray<{ readonly name: string; readonly description: string | undefined }>
  readonly model: string
}

/** What it answers: text (streamed as `deltas` when given), tool calls, and the usage to report. */
export interface OfflineReply {
  readonly text?: string
  /** The text in the pieces a stream sends; joined, they are the text. */
  readonly deltas?: ReadonlyArray<string>
  readonly toolCalls?: ReadonlyArray<{ readonly name: string; readonly params: unknown }>
  /** By default, a deterministic count: a token per four characters. */
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number }
}

/** The text of a message's parts (tool results as JSON). */
export const messageText = (message: Prompt.Message): string =>
  typeof message.content === "string"
    ? message.content
    : message.content.map((part) =>
      part.type === "text" ? part.text : part.type === "tool-result" ? JSON.stringify(part.result) : ""
    ).join("")

const toolCallCommand = /^\/call\s+([A-Za-z0-9_.-]+)\s*([\s\S]*)$/

/** The default script (see the file's comment). */
export const defaultOfflineScript = (turn: OfflineTurn): OfflineReply => {
  const last = turn.prompt.content.at(-1)
  if (last === undefined) return { text: "(offline model) Hello. Say something and I will answer." }
  if (last.role === "tool") {
    const results = last.content.map((part) => `${part.name}: ${JSON.stringify(part.result)}`).join("; ")
    return { text: `(offline model) The tool answered. ${results}` }
  }
  const text = messageText(last).trim()
  const command = toolCallCommand.exec(text)
  if (command !== null && turn.tools.some((tool) => tool.name === command[1])) {
    let params: unknown = {}
    try {
      params = command[2]!.trim() === "" ? {} : JSON.parse(command[2]!)
    } catch {
      return { text: `(offline model) The parameters of ${command[1]} are not JSON.` }
    }
    return { toolCalls: [{ name: command[1]!, params }] }
  }
  return {
    text:
      `(offline model) You said: "${text}". Configure a language model in the workspace's agent-llm settings for real answers.`
  }
}

/** The script in force; the default unless a test or a demo provides another. */
export class OfflineScript extends Context.Reference<OfflineScript>()("parley/providers/llm/OfflineScript", {
  defaultValue: (): (turn: OfflineTurn) => OfflineReply => defaultOfflineScript
}) {}
