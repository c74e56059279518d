import { Schema } from "effect"

/** A published, immutable version of an AI agent, counted from 1 per agent. */
export const AiAgentVersionNumber = Schema.Number.pipe(
  Schema.int(),
  Schema.positive(),
  Schema.brand("AiAgentVersionNumber")
)
export type AiAgentVersionNumber = typeof AiAgentVersionNumber.Type

/** The `{vid}` path parameter: a version number in its string form. */
export const AiAgentVersionParam = Schema.NumberFromString.pipe(Schema.compose(AiAgentVersionNumber))

/** A task (goal with success criteria) of an AI agent. */
export const AiAgentTaskId = Schema.UUID.pipe(Schema.brand("AiAgentTaskId"))
export type AiAgentTaskId = typeof AiAgentTaskId.Type

/** A tool of an AI agent (the seed's `{tid}`). */
export const AiAgentToolId = Schema.UUID.pipe(Schema.brand("AiAgentToolId"))
export type AiAgentToolId = typeof AiAgentToolId.Type

/** A remembered fact of an AI agent. */
export const AiAgentMemoryId = Schema.UUID.pipe(Schema.brand("AiAgentMemoryId"))
export type AiAgentMemoryId = typeof AiAgentMemoryId.Type

/** A knowledge document of an AI agent. */
export const AiAgentKnowledgeId = Schema.UUID.pipe(Schema.brand("AiAgentKnowledgeId"))
export type AiAgentKnowledgeId = typeof AiAgentKnowledgeId.Type

/** A guardrail rule of an AI agent. */
export const AiAgentGuardrailId = Schema.UUID.pipe(Schema.brand("AiAgentGuardrailId"))
export type AiAgentGuardrailId = typeof AiAgentGuardrailId.Type

/** An eval case of an AI agent (the seed's `{eid}`). */
export const AiAgentEvalId = Schema.UUID.pipe(Schema.brand("AiAgentEvalId"))
export type AiAgentEvalId = typeof AiAgentEvalId.Type

/** One run of evals against a version or the draft. */
export const AiAgentEvalRunId = Schema.UUID.pipe(Schema.brand("AiAgentEvalRunId"))
export type AiAgentEvalRunId = typeof AiAgentEvalRunId.Type

/** A draft from the AI-agent wizard, before an agent exists. */
export const AiAgentDraftId = Schema.UUID.pipe(Schema.brand("AiAgentDraftId"))
export type AiAgentDraftId = typeof AiAgentDraftId.Type

/** An AI agent's internal id; the API addresses agents by their `Slug`, rows refer to them by this. */
export const AiAgentId = Schema.UUID.pipe(Schema.brand("AiAgentId"))
export type AiAgentId = typeof AiAgentId.Type

/**
 * A conversation with an AI agent: a lowercase UUID (v7), which also fits the
 * shared slug pattern. It is the seed's `{convo_slug}` and a turn's `conversationId`.
 */
export const AiAgentConversationId = Schema.UUID.pipe(
  Schema.lowercased({ message: () => "a conversation id is a lowercase UUID" }),
  Schema.brand("AiAgentConversationId")
)
export type AiAgentConversationId = typeof AiAgentConversationId.Type

/** One message of an AI-agent conversation. */
export const AiAgentMessageId = Schema.UUID.pipe(Schema.brand("AiAgentMessageId"))
export type AiAgentMessageId = typeof AiAgentMessageId.Type

/**
 * The embedding site's own identifier for its end user (1 to 128 visible ASCII
 * characters); it scopes user memory and filters conversations. Never a Parley user.
 */
export const EndUserId = Schema.String.pipe(
  Schema.pattern(/^[\x21-\x7e]{1,128}$/, { message: () => "an end-user id is 1 to 128 visible ASCII characters" }),
  Schema.brand("EndUserId"),
  Schema.annotations({ identifier: "EndUserId", examples: ["customer-4821" as never] })
)
export type EndUserId = typeof EndUserId.Type
