import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Workflow chains (DESIGN.md §8): a chain's steps are one JSON document
 * (ordered, each naming a workflow and optionally a pinned version); its
 * Standard Webhooks signing secret is sealed with the master key (context
 * `chain-ingress-secret`, re-sealed by the master-key rotation) and only a
 * hint of it is readable. The slug is unique per workspace and fixed: public
 * ingress URLs embed it.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`CREATE TABLE workflow_chains (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      slug text NOT NULL,
      name text NOT NULL,
      description text NOT NULL DEFAULT '',
      steps jsonb NOT NULL DEFAULT '[]'::jsonb,
      ingress_enabled boolean NOT NULL DEFAULT false,
      events_url text,
      ingress_secret text NOT NULL,
      ingress_secret_hint text NOT NULL,
      ingress_secret_rotated_at timestamptz NOT NULL,
      revision integer NOT NULL DEFAULT 1,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      UNIQUE (workspace_id, slug),
      UNIQUE (id, workspace_id)
    )`
  ], { discard: true }))
