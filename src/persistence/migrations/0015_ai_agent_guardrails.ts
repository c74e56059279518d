import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * An AI agent's guardrails (DESIGN.md §7): a draft collection like tasks and
 * tools (every write bumps the agent's revision; a version snapshots them).
 * The rule is one JSON document per guardrail, by `kind`; the name is unique
 * per agent. Hits are not stored here: a turn records them with its messages
 * (`ai_agent_messages.guardrail_events`), where analytics count them.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`CREATE TABLE ai_agent_guardrails (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL,
      agent_id uuid NOT NULL,
      name text NOT NULL,
      stage text NOT NULL CHECK (stage IN ('input', 'output')),
      rule jsonb NOT NULL,
      action text NOT NULL CHECK (action IN ('block', 'redact', 'warn', 'handoff')),
      enabled boolean NOT NULL DEFAULT true,
      message text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      UNIQUE (agent_id, name),
      FOREIGN KEY (agent_id, workspace_id) REFERENCES ai_agents (id, workspace_id) ON DELETE CASCADE
    )`
  ], { discard: true }))
