import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * An AI agent's evals (DESIGN.md §7). Not part of the draft: writes do not
 * bump the agent's revision and versions do not snapshot them.
 *
 * - `ai_agent_evals`: the cases (a conversation, expectations, tool mocks as
 *   JSON documents), the name unique per agent.
 * - `ai_agent_eval_runs`: every finished run, of one case (`manual`) or of the
 *   enabled suite (`publish-gate`), against a version or a draft revision
 *   (exactly one of the two), with each case's results as they ran: deleting a
 *   case keeps them. A publish gate's run is stored against the draft revision
 *   and moved to the version it let through; `ai_agent_versions.eval_score`
 *   and `eval_run_id` name a version's latest suite run.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`CREATE TABLE ai_agent_evals (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL,
      agent_id uuid NOT NULL,
      name text NOT NULL,
      description text NOT NULL,
      conversation jsonb NOT NULL,
      expectations jsonb NOT NULL,
      variables jsonb NOT NULL,
      end_user_id text,
      tool_mocks jsonb NOT NULL,
      weight double precision NOT NULL CHECK (weight > 0 AND weight <= 100),
      tags jsonb NOT NULL,
      enabled boolean NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      UNIQUE (agent_id, name),
      FOREIGN KEY (agent_id, workspace_id) REFERENCES ai_agents (id, workspace_id) ON DELETE CASCADE
    )`,
    sql`CREATE TABLE ai_agent_eval_runs (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL,
      agent_id uuid NOT NULL,
      version integer,
      draft_revision integer,
      trigger text NOT NULL CHECK (trigger IN ('manual', 'publish-gate')),
      status text NOT NULL CHECK (status IN ('queued', 'running', 'passed', 'failed', 'error')),
      score double precision CHECK (score BETWEEN 0 AND 1),
      case_count integer NOT NULL,
      passed_count integer NOT NULL,
      results jsonb NOT NULL,
      model jsonb,
      error text,
      usage jsonb NOT NULL,
      latency_ms integer NOT NULL,
      created_at timestamptz NOT NULL,
      started_at timestamptz,
      finished_at timestamptz,
      CHECK ((version IS NULL) <> (draft_revision IS NULL)),
      FOREIGN KEY (agent_id, workspace_id) REFERENCES ai_agents (id, workspace_id) ON DELETE CASCADE
    )`,
    sql`CREATE INDEX ai_agent_eval_runs_version ON ai_agent_eval_runs (agent_id, version, created_at DESC)`
  ], { discard: true }))
