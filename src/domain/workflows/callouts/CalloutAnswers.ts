/**
 * How the answers of a workflow's calls out become node outputs, as pure
 * rules (the service that makes the calls is `WorkflowCallouts`):
 *
 * - `http`: `{ status, headers, body }`, the body its JSON when it parses as
 *   JSON whatever the content type, else its text, as an AI agent reads a
 *   tool's answer. A status of 400 or more is a failure (the node retries it
 *   and may route it by `error`), as it is a failed tool step for an agent:
 *   429 and 5xx may pass on a retry, and a 4xx is better routed than read
 *   as a success. A 3xx left after the client's redirects is an answer.
 * - `llm` with an output schema: the model is told to answer one JSON value
 *   satisfying it; the answer's JSON (the whole answer, or its one fenced
 *   block) is checked against the schema, and an answer that is not JSON or
 *   does not satisfy it is a failure, so `maxAttempts` asks again.
 * - `ai-agent`: `{ reply, outcome, handoff, conversationId, version }`, the
 *   outcome as the public route names it (`answered`, `blocked`,
 *   `handed-off`); the context reaches the agent as its turn's variables
 *   (the `{{name}}` placeholders of its instructions), strings as they are
 *   and other values as their JSON text.
 */
import { Either } from "effect"
import type { TurnHandoff } from "../../aiAgents/AgentTurn.js"
import { replyJson } from "../../aiAgents/evals/ReplyJson.js"
import type { AiAgentConversationId, AiAgentVersionNumber } from "../../aiAgents/Ids.js"
import type { PublicTurnOutcome } from "../../aiAgents/PublicTurn.js"
import { excerpt } from "../../Excerpt.js"
import { jsonOrText, type JsonSchemaDocument, type JsonValue } from "../../Json.js"
import { inputProblems } from "../../workspace/ToolInputValidation.js"

/** What a tool answered (secrets already masked). */
export interface ToolAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** An http node's output, or why the answer is a failure (the status and the start of the body). */
export const httpOutput = (toolName: string, answer: ToolAnswer): Either.Either<JsonValue, string> =>
  answer.status >= 400
    ? Either.left(`The tool ${toolName} answered HTTP ${answer.status}: ${excerpt(answer.body, 300) || "(no body)"}`)
    : Either.right({ status: answer.status, headers: answer.headers, body: jsonOrText(answer.body) })

/** The system prompt of an llm node with an output schema: its own, then how to answer. */
export const structuredSystem = (system: string | undefined, schema: JsonSchemaDocument): string =>
  [
    ...(system === undefined || system.trim() === "" ? [] : [system]),
    "Answer with one JSON value and nothing else: no prose, no code fence. The value must satisfy this JSON " +
    `Schema:\n${JSON.stringify(schema)}`
  ].join("\n\n")

/** The JSON of an llm node's answer, checked against its output schema; or why it is not one. */
export const structuredAnswer = (text: string, schema: JsonSchemaDocument): Either.Either<JsonValue, string> =>
  Either.match(replyJson(text), {
    onLeft: (reason) => Either.left(`The model's answer is not JSON (${reason})`),
    onRight: (value) => {
      const problems = inputProblems(schema, value)
      return problems.length === 0 ? Either.right(value) : Either.left(
        `The model's answer does not satisfy the output schema: ${
          problems.slice(0, 10).map((problem) => `${problem.pointer || "/"} ${problem.message}`).join("; ")
        }`
      )
    }
  })

/** An ai-agent node's context as its turn's variables. */
export const agentVariables = (context: { readonly [name: string]: JsonValue }): Record<string, string> =>
  Object.fromEntries(
    Object.entries(context).map(([name, value]) => [name, typeof value === "string" ? value : JSON.stringify(value)])
  )

/** What an agent's turn ended with, as the node reads it. */
export interface AgentReply {
  readonly conversationId: AiAgentConversationId
  readonly message: { readonly content: string }
  readonly handoff: typeof TurnHandoff.Type | null
  readonly version: AiAgentVersionNumber | null
}

/** An ai-agent node's output. */
export const agentOutput = (reply: AgentReply, outcome: typeof PublicTurnOutcome.Type): JsonValue => ({
  reply: reply.message.content,
  outcome,
  handoff: reply.handoff === null
    ? null
    : { reason: reply.handoff.reason, triggeredBy: reply.handoff.triggeredBy, target: reply.handoff.target },
  conversationId: reply.conversationId,
  version: reply.version
})
