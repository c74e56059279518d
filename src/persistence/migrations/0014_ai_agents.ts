import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * AI agents (DESIGN.md §7), apart from the Assistants' tables.
 *
 * - `ai_agents`: the draft configuration (settings as JSON documents, read
 *   and written whole), the draft `revision` every write to the agent or a
 *   draft collection (tasks, tools) bumps, the live version, and the public
 *   token's SHA-256 (never the token).
 * - `ai_agent_tasks`, `ai_agent_tools`: the draft collections.
 * - `ai_agent_memory`: live facts (not part of the draft), with use counts so
 *   the oldest and least used leave first when a scope is full.
 * - `ai_agent_drafts`: wizard work before an agent exists.
 * - `ai_agent_versions`: immutable snapshots, numbered from 1 per agent.
 * - `ai_agent_conversations`: one per conversation, with the fencing epoch of
 *   its `AgentConversation` entity (as `runtime_sessions`).
 * - `ai_agent_turns`: one per turn, written when the turn is accepted (its
 *   idempotency key unique per conversation, its request and the limits it
 *   runs under), finished with its result in a fenced write.
 * - `ai_agent_steps`: the durable steps of a turn (a model call, a tool
 *   call), each stored before the next begins, on the index the loop
 *   reserved for it; the primary key makes a step stored at most once.
 * - `ai_agent_messages`: the transcript as the API shows it, written with the
 *   turn's result.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`CREATE TABLE ai_agents (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      slug text NOT NULL,
      name text NOT NULL,
      description text NOT NULL,
      instructions text NOT NULL,
      model_settings jsonb NOT NULL,
      conversation jsonb NOT NULL,
      embed jsonb NOT NULL,
      revision integer NOT NULL DEFAULT 1,
      live_version integer,
      public_token_hash text UNIQUE,
      public_token_hint text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      UNIQUE (workspace_id, slug),
      UNIQUE (id, workspace_id)
    )`,
    sql`CREATE TABLE ai_agent_tasks (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL,
      agent_id uuid NOT NULL,
      title text NOT NULL,
      goal text NOT NULL,
      success_criteria jsonb NOT NULL,
      position integer NOT NULL,
      required_tool_ids jsonb NOT NULL DEFAULT '[]',
      status text NOT NULL CHECK (status IN ('enabled', 'disabled')),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      UNIQUE (agent_id, title),
      FOREIGN KEY (agent_id, workspace_id) REFERENCES ai_agents (id, workspace_id) ON DELETE CASCADE
    )`,
    sql`CREATE INDEX ai_agent_tasks_order ON ai_agent_tasks (agent_id, position)`,
    sql`CREATE TABLE ai_agent_tools (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL,
      agent_id uuid NOT NULL,
      name text NOT NULL,
      description text,
      config jsonb NOT NULL,
      enabled boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      UNIQUE (agent_id, name),
      FOREIGN KEY (agent_id, workspace_id) REFERENCES ai_agents (id, workspace_id) ON DELETE CASCADE
    )`,
    sql`CREATE INDEX ai_agent_tools_workspace_tool ON ai_agent_tools ((config->>'workspaceToolId'))
        WHERE config->>'kind' = 'workspace'`,
    sql`CREATE TABLE ai_agent_memory (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL,
      agent_id uuid NOT NULL,
      scope text NOT NULL CHECK (scope IN ('agent', 'end-user')),
      end_user_id text,
      key text,
      content text NOT NULL,
      source text NOT NULL CHECK (source IN ('manual', 'conversation')),
      conversation_id uuid,
      retention jsonb NOT NULL,
      expires_at timestamptz,
      use_count integer NOT NULL DEFAULT 0,
      last_used_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CHECK ((scope = 'agent') = (end_user_id IS NULL)),
      FOREIGN KEY (agent_id, workspace_id) REFERENCES ai_agents (id, workspace_id) ON DELETE CASCADE
    )`,
    sql`CREATE UNIQUE INDEX ai_agent_memory_key ON ai_agent_memory (agent_id, scope, coalesce(end_user_id, ''), key)
        WHERE key IS NOT NULL`,
    sql`CREATE INDEX ai_agent_memory_scope ON ai_agent_memory (agent_id, scope, end_user_id, updated_at)`,
    sql`CREATE TABLE ai_agent_drafts (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      created_by jsonb NOT NULL,
      step text NOT NULL,
      name text NOT NULL,
      description text NOT NULL,
      proposed_slug text,
      instructions text NOT NULL,
      tasks jsonb NOT NULL,
      tools jsonb NOT NULL,
      model_settings jsonb,
      answers jsonb NOT NULL,
      revision integer NOT NULL DEFAULT 1,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`,
    sql`CREATE INDEX ai_agent_drafts_workspace ON ai_agent_drafts (workspace_id, updated_at)`,
    sql`CREATE TABLE ai_agent_versions (
      workspace_id uuid NOT NULL,
      agent_id uuid NOT NULL,
      number integer NOT NULL CHECK (number >= 1),
      notes text NOT NULL,
      revision integer NOT NULL,
      created_by jsonb NOT NULL,
      eval_score double precision,
      eval_run_id uuid,
      snapshot jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (agent_id, number),
      FOREIGN KEY (agent_id, workspace_id) REFERENCES ai_agents (id, workspace_id) ON DELETE CASCADE
    )`,
    sql`CREATE TABLE ai_agent_conversations (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL,
      agent_id uuid NOT NULL,
      channel text NOT NULL,
      status text NOT NULL CHECK (status IN ('active', 'handed-off', 'ended')),
      version integer,
      end_user_id text,
      title text NOT NULL DEFAULT '',
      metadata jsonb NOT NULL DEFAULT '{}',
      turns integer NOT NULL DEFAULT 0,
      input_tokens bigint NOT NULL DEFAULT 0,
      output_tokens bigint NOT NULL DEFAULT 0,
      cost_usd double precision,
      guardrail_hits integer NOT NULL DEFAULT 0,
      started_by jsonb,
      owner_epoch integer NOT NULL DEFAULT 0,
      owner_runner text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      FOREIGN KEY (agent_id, workspace_id) REFERENCES ai_agents (id, workspace_id) ON DELETE CASCADE
    )`,
    sql`CREATE INDEX ai_agent_conversations_agent ON ai_agent_conversations (agent_id, created_at)`,
    sql`CREATE TABLE ai_agent_turns (
      conversation_id uuid NOT NULL REFERENCES ai_agent_conversations(id) ON DELETE CASCADE,
      turn integer NOT NULL CHECK (turn >= 1),
      idempotency_key text NOT NULL,
      body_hash text NOT NULL,
      request jsonb NOT NULL,
      status text NOT NULL CHECK (status IN ('running', 'done', 'failed')),
      result jsonb,
      attempts integer NOT NULL DEFAULT 0,
      epoch integer NOT NULL,
      trace_id text NOT NULL,
      started_at timestamptz NOT NULL,
      finished_at timestamptz,
      PRIMARY KEY (conversation_id, turn),
      UNIQUE (conversation_id, idempotency_key)
    )`,
    sql`CREATE TABLE ai_agent_steps (
      conversation_id uuid NOT NULL,
      turn integer NOT NULL,
      step integer NOT NULL CHECK (step >= 0),
      kind text NOT NULL CHECK (kind IN ('model', 'tool')),
      data jsonb NOT NULL,
      epoch integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      PRIMARY KEY (conversation_id, turn, step),
      FOREIGN KEY (conversation_id, turn) REFERENCES ai_agent_turns (conversation_id, turn) ON DELETE CASCADE
    )`,
    sql`CREATE TABLE ai_agent_messages (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL,
      conversation_id uuid NOT NULL REFERENCES ai_agent_conversations(id) ON DELETE CASCADE,
      turn integer NOT NULL,
      seq integer NOT NULL,
      role text NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
      content text NOT NULL,
      redacted boolean NOT NULL DEFAULT false,
      tool_call jsonb,
      guardrail_events jsonb NOT NULL DEFAULT '[]',
      usage jsonb,
      latency_ms integer,
      model jsonb,
      version integer,
      finish_reason text,
      handoff jsonb,
      trace_id text,
      created_at timestamptz NOT NULL,
      UNIQUE (conversation_id, turn, seq)
    )`
  ], { discard: true }))
