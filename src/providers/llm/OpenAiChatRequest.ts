/**
 * An @effect/ai request as an OpenAI chat-completions body: the messages
 * (system, user, assistant with its tool calls, one `tool` message per tool
 * result), the function tools with their JSON schemas, the tool choice, a
 * JSON-schema response format for structured output, and the connection's
 * defaults. Chat completions, not the Responses API, because it is what every
 * OpenAI-compatible server speaks (Ollama, vLLM, llama.cpp, OpenRouter, Azure).
 */
import { type LanguageModel, type Prompt, Tool } from "@effect/ai"
import type { LlmConnection } from "../../domain/settings/LlmConnection.js"

type ChatMessage = Record<string, unknown>

const textOf = (parts: ReadonlyArray<Prompt.Part>): string =>
  parts.flatMap((part) => part.type === "text" ? [part.text] : []).join("")

const messagesOf = (prompt: Prompt.Prompt): Array<ChatMessage> =>
  prompt.content.flatMap((message): Array<ChatMessage> => {
    switch (message.role) {
      case "system":
        return [{ role: "system", content: message.content }]
      case "user":
        return [{ role: "user", content: textOf(message.content) }]
      case "assistant": {
        const calls = message.content.flatMap((part) =>
          part.type === "tool-call"
            ? [{ id: part.id, type: "function", function: { name: part.name, arguments: JSON.stringify(part.params) } }]
            : []
        )
        const text = textOf(message.content)
        return [{
          role: "assistant",
          content: text === "" && calls.length > 0 ? null : text,
          ...(calls.length > 0 ? { tool_calls: calls } : {})
        }]
      }
      case "tool":
        return message.content.map((part) => ({
          role: "tool",
          tool_call_id: part.id,
          content: JSON.stringify(part.result)
        }))
    }
  })

const toolChoiceOf = (choice: LanguageModel.ProviderOptions["toolChoice"]): unknown => {
  if (typeof choice === "string") return choice
  if ("tool" in choice) return { type: "function", function: { name: choice.tool } }
  return choice.mode === "required" ? "required" : "auto"
}

/** The body of `POST /chat/completions` for `options` on `connection`. */
export const chatCompletionBody = (
  connection: LlmConnection,
  options: LanguageModel.ProviderOptions,
  stream: boolean
): Record<string, unknown> => {
  const tools = options.tools.filter(Tool.isUserDefined).map((tool) => ({
    type: "function",
    function: {
      name: tool.name,
      description: Tool.getDescription(tool as any),
      parameters: Tool.getJsonSchema(tool as any)
    }
  }))
  const format = options.responseFormat
  return {
    model: connection.model,
    messages: messagesOf(options.prompt),
    temperature: connection.temperature,
    // OpenAI's reasoning models refuse `max_tokens`; most compatible servers know only it.
    [connection.provider === "openai" ? "max_completion_tokens" : "max_tokens"]: connection.maxOutputTokens,
    ...(tools.length > 0 ? { tools, tool_choice: toolChoiceOf(options.toolChoice) } : {}),
    ...(format.type === "json"
      ? {
        response_format: {
          type: "json_schema",
          json_schema: { name: format.objectName, schema: Tool.getJsonSchemaFromSchemaAst(format.schema.ast) }
        }
      }
      : {}),
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {})
  }
}
