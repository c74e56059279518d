/**
 * An AI agent made straight in the database for the collection tests (tasks,
 * tools), so they depend on nothing but the agents table: its draft settings
 * are the defaults, its revision 1.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { v7 as uuidv7 } from "uuid"
import { ConversationSettings } from "../../../src/domain/aiAgents/ConversationSettings.js"
import { EmbedSettings } from "../../../src/domain/aiAgents/EmbedSettings.js"
import { ModelSettings } from "../../../src/domain/aiAgents/ModelSettings.js"

let count = 0

const defaults = <A, I>(schema: Schema.Schema<A, I>) =>
  JSON.stringify(Schema.encodeSync(schema)(Schema.decodeUnknownSync(schema)({})))

/** A new agent in the workspace: its slug and id. */
export const agentRow = (workspaceId: string, name = "Support agent") =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = uuidv7()
    const slug = `agent-${process.pid}-${++count}-${Date.now() % 100_000}`
    const now = new Date()
    yield* sql`INSERT INTO ai_agents (id, workspace_id, slug, name, description, instructions, model_settings,
        conversation, embed, created_at, updated_at)
      VALUES (${id}, ${workspaceId}, ${slug}, ${name}, '', '', ${defaults(ModelSettings)}::jsonb,
        ${defaults(ConversationSettings)}::jsonb, ${defaults(EmbedSettings)}::jsonb, ${now}, ${now})`
    return { id, slug }
  }).pipe(Effect.orDie)

/** The agent's draft revision as stored. */
export const revisionOf = (id: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ revision: number }>`SELECT revision FROM ai_agents WHERE id = ${id}`
    return row!.revision
  }).pipe(Effect.orDie)
