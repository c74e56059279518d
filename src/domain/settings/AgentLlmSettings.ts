import { Model } from "@effect/sql"
import { Schema } from "effect"
import { Actor } from "../identity/Actor.js"
import { WorkspaceId } from "../identity/Ids.js"
import { LlmConnection } from "./LlmConnection.js"

/**
 * The workspace's LLM for AI agents, `ai` flow nodes and `llm` workflow nodes
 * (one row per workspace). A null `primary` means the workspace sets none, so
 * the environment's or the built-in default is in force; the fallback is
 * tried when the primary fails or times out.
 */
export class AgentLlmSettings extends Model.Class<AgentLlmSettings>("AgentLlmSettings")({
  workspaceId: Model.FieldExcept("jsonCreate", "jsonUpdate")(WorkspaceId),
  primary: Schema.NullOr(LlmConnection),
  fallback: Schema.NullOr(LlmConnection),
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
  fallback: Schema.optional(Schema.NullOr(LlmConnection))
}).annotations({ identifier: "AgentLlmSettingsPatch", parseOptions: { onExcessProperty: "error" } })
