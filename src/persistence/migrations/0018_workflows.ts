import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Graph workflows (DESIGN.md §8).
 *
 * - `workflows`: the draft (name, description and the graph as one JSON
 *   document, read and written whole), the `revision` every draft write bumps,
 *   `status` (`draft` until the first publish, `live` after) and the live
 *   version. Listed per workspace, oldest first.
 * - `workflow_versions`: numbered from 1 per workflow, never changed once
 *   written. `kind` is `published` (made by publish; the only kind the live
 *   version may name) or `saved-draft` (the draft as it was, kept by a restore
 *   that would otherwise overwrite a graph no version holds). Publishes lock
 *   the workflow's row, so numbers are taken one at a time; the primary key
 *   makes a number taken twice fail rather than overwrite.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`CREATE TABLE workflows (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      name text NOT NULL,
      description text NOT NULL,
      graph jsonb NOT NULL,
      revision integer NOT NULL DEFAULT 1 CHECK (revision >= 1),
      status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'live')),
      live_version integer,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CHECK ((status = 'live') = (live_version IS NOT NULL))
    )`,
    sql`CREATE INDEX workflows_workspace ON workflows (workspace_id, created_at, id)`,
    sql`CREATE TABLE workflow_versions (
      workflow_id uuid NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
      version integer NOT NULL CHECK (version >= 1),
      kind text NOT NULL CHECK (kind IN ('published', 'saved-draft')),
      graph jsonb NOT NULL,
      revision integer NOT NULL,
      note text NOT NULL,
      published_by jsonb NOT NULL,
      published_at timestamptz NOT NULL,
      PRIMARY KEY (workflow_id, version)
    )`
  ], { discard: true }))
