import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Workspace administration beside the vault and the LLM settings.
 *
 * `agent_ops_settings`: one row per workspace that changed its agent-ops
 * settings (a workspace without one reads the defaults), one jsonb per group.
 *
 * `usage_counters`: what nodes count in memory and add in batches (AI tokens
 * in and out, LLM calls), per workspace, UTC day, metric, provider and model;
 * a flush adds to a row, so the nodes' counts sum. Sessions and turns are not
 * counted here: they are read from the runtime's own rows.
 *
 * `leads`: the public demo and contact-sales forms, not tied to a workspace;
 * a filled honeypot is kept with `spam`, so an operator can tell bots apart.
 *
 * `error_reports`: one row per workspace and fingerprint; a repeat adds to
 * `occurrences` and keeps its newest details (trace id, route, status).
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`CREATE TABLE agent_ops_settings (
      workspace_id uuid PRIMARY KEY REFERENCES workspaces(id) ON DELETE CASCADE,
      publish_gates jsonb NOT NULL,
      retention jsonb NOT NULL,
      token_budgets jsonb NOT NULL,
      rate_limits jsonb NOT NULL,
      handoff jsonb NOT NULL,
      updated_by jsonb,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    sql`CREATE TABLE usage_counters (
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      day date NOT NULL,
      metric text NOT NULL,
      provider text NOT NULL DEFAULT '',
      model text NOT NULL DEFAULT '',
      amount bigint NOT NULL CHECK (amount >= 0),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (workspace_id, day, metric, provider, model)
    )`,
    sql`CREATE TABLE leads (
      id uuid PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('demo', 'contact-sales')),
      name text NOT NULL,
      email text NOT NULL,
      company text NOT NULL,
      message text NOT NULL,
      phone text,
      consent boolean NOT NULL,
      marketing_opt_in boolean NOT NULL,
      utm jsonb,
      referrer text,
      page_url text,
      spam boolean NOT NULL DEFAULT false,
      honeypot text,
      ip_address text,
      user_agent text,
      mailed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    sql`CREATE INDEX leads_created ON leads (created_at DESC) WHERE NOT spam`,
    sql`CREATE TABLE error_reports (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      fingerprint text NOT NULL,
      occurrences integer NOT NULL DEFAULT 1 CHECK (occurrences >= 1),
      reported_by jsonb NOT NULL,
      severity text NOT NULL CHECK (severity IN ('fatal', 'error', 'warning')),
      error_name text,
      message text NOT NULL,
      stack text,
      trace_id text,
      route text,
      status integer,
      bot text,
      url text,
      user_agent text,
      app_version text,
      context jsonb NOT NULL,
      first_seen_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      UNIQUE (workspace_id, fingerprint)
    )`,
    sql`CREATE INDEX error_reports_recent ON error_reports (last_seen_at DESC)`
  ], { discard: true }))
