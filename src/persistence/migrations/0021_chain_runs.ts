import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Chain runs (DESIGN.md §8). A run follows the chain's steps as they were
 * when it started (`steps`, a snapshot) and is executed by the `ChainRun`
 * durable workflow on the cluster's engine; `generation` counts its
 * executions (a failed run resumed from its failed step is a new execution
 * that reuses the steps that succeeded). The client's `Idempotency-Key` and
 * a public delivery's `webhook-id` are unique per chain, so a repeated start
 * finds the first run. `chain_run_steps` is the step log: one row per
 * attempt of a step, with the workflow version it ran, its input, output or
 * error, and the nodes it passed. A paused run's `wait_keys` name the durable
 * deferreds its waits block on (by node), which `/resume` completes;
 * `resume_key` is the Idempotency-Key of the last resume, so its repeat is
 * answered with the run instead of a 409; `resume_payload` keeps a claimed
 * resume's payload until the run takes it up, so a resume cut off half-way
 * is completed again (by its repeat or the sweep).
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`CREATE TABLE chain_runs (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      chain_id uuid NOT NULL REFERENCES workflow_chains (id) ON DELETE CASCADE,
      chain_slug text NOT NULL,
      chain_revision integer NOT NULL,
      steps jsonb NOT NULL,
      status text NOT NULL CHECK (status IN ('queued', 'running', 'paused', 'succeeded', 'failed', 'cancelled')),
      trigger text NOT NULL CHECK (trigger IN ('manual', 'ingress', 'api')),
      event_type text,
      webhook_id text,
      idempotency_key text,
      body_hash text NOT NULL,
      input jsonb NOT NULL,
      output jsonb NOT NULL DEFAULT 'null'::jsonb,
      error jsonb,
      waiting_for jsonb NOT NULL DEFAULT '[]'::jsonb,
      wait_keys jsonb NOT NULL DEFAULT '[]'::jsonb,
      resume_key text,
      resume_payload jsonb,
      started_by jsonb,
      trace_id text,
      generation integer NOT NULL DEFAULT 1,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      started_at timestamptz,
      finished_at timestamptz,
      UNIQUE (chain_id, idempotency_key),
      UNIQUE (chain_id, webhook_id)
    )`,
    sql`CREATE INDEX chain_runs_by_chain ON chain_runs (chain_id, created_at DESC, id DESC)`,
    sql`CREATE INDEX chain_runs_unfinished ON chain_runs (status) WHERE status IN ('queued', 'running', 'paused')`,
    sql`CREATE TABLE chain_run_steps (
      run_id uuid NOT NULL REFERENCES chain_runs (id) ON DELETE CASCADE,
      step_id text NOT NULL,
      attempt integer NOT NULL CHECK (attempt >= 1),
      generation integer NOT NULL,
      workflow_id uuid NOT NULL,
      workflow_version integer,
      status text NOT NULL CHECK (status IN ('running', 'paused', 'succeeded', 'failed', 'skipped', 'cancelled')),
      input jsonb NOT NULL DEFAULT 'null'::jsonb,
      output jsonb NOT NULL DEFAULT 'null'::jsonb,
      error jsonb,
      nodes jsonb NOT NULL DEFAULT '[]'::jsonb,
      started_at timestamptz NOT NULL,
      finished_at timestamptz,
      PRIMARY KEY (run_id, step_id, attempt)
    )`
  ], { discard: true }))
