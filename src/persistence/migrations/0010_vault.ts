import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The workspace vault. `secrets` holds what may be shown of a secret (name,
 * version, masked hint, who wrote and who used it); `secret_versions` holds
 * the sealed value of its current version: the ciphertext, the data key
 * wrapped by a master key and that key's id, which a master-key rotation
 * rewrites row by row. Only the current version is kept: a rotation usually
 * retires a leaked or expired value, nothing reads an old one, and a copy
 * kept is a copy that a stolen master key opens. The version row's primary
 * key still makes two writers of one version collide instead of overwriting.
 *
 * `secret_references` says which resource names which secret (by name, as
 * definitions do), written by the resources' own services, so a delete can
 * name the secret's users; a reference outlives a forced delete and resolves
 * again when a secret of that name is created.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`CREATE TABLE secrets (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      name text NOT NULL,
      description text NOT NULL DEFAULT '',
      version integer NOT NULL CHECK (version >= 1),
      masked_hint text,
      created_by jsonb NOT NULL,
      updated_by jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      last_used_at timestamptz,
      last_used_by jsonb,
      use_count bigint NOT NULL DEFAULT 0,
      UNIQUE (workspace_id, name)
    )`,
    sql`CREATE TABLE secret_versions (
      secret_id uuid NOT NULL REFERENCES secrets(id) ON DELETE CASCADE,
      version integer NOT NULL,
      ciphertext bytea NOT NULL,
      wrapped_key bytea NOT NULL,
      master_key_id text NOT NULL,
      created_by jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (secret_id, version)
    )`,
    sql`CREATE INDEX secret_versions_master_key ON secret_versions (master_key_id)`,
    sql`CREATE TABLE secret_references (
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      secret_name text NOT NULL,
      resource_kind text NOT NULL,
      resource_id text NOT NULL,
      resource_name text,
      PRIMARY KEY (workspace_id, secret_name, resource_kind, resource_id)
    )`,
    sql`CREATE INDEX secret_references_resource ON secret_references (workspace_id, resource_kind, resource_id)`
  ], { discard: true }))
