import { Model } from "@effect/sql"
import { Schema } from "effect"
import type { FieldProblem } from "../FieldProblem.js"
import { Actor } from "../identity/Actor.js"
import { WorkspaceId } from "../identity/Ids.js"
import { connectionProblems, LlmConnection } from "./LlmConnection.js"

const EMBEDDINGS_DESCRIPTION =
  "Contract refinement: the embeddings provider of the workspace's AI-agent knowledge (an OpenAI-compatible " +
  "`/embeddings` endpoint: provider `openai` or `openai-compatible`; its `model` names the embedding model). " +
  "Null: none, and knowledge is searched lexically only. With one, indexed chunks are embedded and " +
  "`knowledge_search` fuses a vector ranking with the lexical one; changing the model embeds them again."

/**
 * The workspace's LLM for AI agents, `ai` flow nodes and `llm` workflow nodes
 * (one row per workspace). A null `primary` means the workspace sets none, so
 * the environment's or the built-in default is in force; the fallback is
 * tried when the primary fails or times out. `embeddings`, when set, embeds
 * the agents' knowledge for hybrid retrieval.
 */
export class AgentLlmSettings extends Model.Class<AgentLlmSettings>("AgentLlmSettings")({
  workspaceId: Model.FieldExcept("jsonCreate", "jsonUpdate")(WorkspaceId),
  primary: Schema.NullOr(LlmConnection),
  fallback: Schema.NullOr(LlmConnection),
  embeddings: Schema.NullOr(LlmConnection).annotations({ description: EMBEDDINGS_DESCRIPTION }),
  /** Who saved the settings last; null while they are the defaults. */
  updatedBy: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.NullOr(Actor)),
  updatedAt: Model.DateTimeUpdateFromDate
}) {}

/**
 * A change of the workspace LLM: each connection given replaces the stored
 * one whole, and null clears it; unknown fields are refused.
 */
export const AgentLlmSettingsPatch = Schema.Struct({
  primary: Schema.optional(Schema.NullOr(LlmConnection)),
  fallback: Schema.optional(Schema.NullOr(LlmConnection)),
  embeddings: Schema.optional(Schema.NullOr(LlmConnection).annotations({ description: EMBEDDINGS_DESCRIPTION }))
}).annotations({ identifier: "AgentLlmSettingsPatch", parseOptions: { onExcessProperty: "error" } })

/** The problems of a connection, each under its dotted field (`primary.baseUrl`). */
export const problemsOf = (connection: LlmConnection | null, at: string): ReadonlyArray<FieldProblem> =>
  connection === null
    ? []
    : connectionProblems(connection).map((problem) => ({ field: `${at}.${problem.field}`, message: problem.message }))

const sameEndpoint = (a: LlmConnection, b: LlmConnection) =>
  a.provider === b.provider && a.baseUrl === b.baseUrl && a.model === b.model

/** The providers with an embeddings endpoint in Parley (OpenAI's `/embeddings` protocol). */
const embeddingProviders: ReadonlySet<LlmConnection["provider"]> = new Set(["openai", "openai-compatible"])

/** The problems of an embeddings connection: a connection's own rules, and a provider that embeds. */
const embeddingsProblems = (embeddings: LlmConnection | null): ReadonlyArray<FieldProblem> =>
  embeddings === null ? [] : [
    ...(embeddingProviders.has(embeddings.provider) ? [] : [{
      field: "embeddings.provider",
      message: `${embeddings.provider} has no embeddings endpoint in Parley: use openai or openai-compatible`
    }]),
    ...problemsOf(embeddings, "embeddings").filter((problem) => problem.field !== "embeddings.provider")
  ]

/**
 * What is wrong with settings about to be saved: each connection's own rules,
 * a fallback that is the primary again (it would fail when the primary does),
 * and an embeddings connection whose provider does not embed.
 */
export const settingsProblems = (
  primary: LlmConnection | null,
  fallback: LlmConnection | null,
  embeddings: LlmConnection | null = null
): ReadonlyArray<FieldProblem> => [
  ...problemsOf(primary, "primary"),
  ...problemsOf(fallback, "fallback"),
  ...embeddingsProblems(embeddings),
  ...(primary !== null && fallback !== null && sameEndpoint(primary, fallback)
    ? [{ field: "fallback", message: "the fallback is the primary's provider, endpoint and model again" }]
    : [])
]
