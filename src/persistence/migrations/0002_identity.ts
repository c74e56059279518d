import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Identity and access: users, their sessions and credentials, workspaces and
 * memberships, invitations, API tokens, signing keys, brute-force counters
 * and the append-only, hash-chained audit log. Secrets are stored only as
 * hashes (passwords, tokens) or encrypted with the master key (TOTP seeds,
 * signing keys).
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`
      CREATE TABLE users (
        id uuid PRIMARY KEY,
        email text NOT NULL UNIQUE,
        display_name text NOT NULL,
        password_hash text NOT NULL,
        password_changed_at timestamptz NOT NULL,
        email_verified_at timestamptz,
        mfa_enabled_at timestamptz,
        -- the TOTP seed, encrypted with the master key; pending until verified
        totp_secret text,
        totp_pending_secret text,
        totp_pending_expires_at timestamptz,
        -- the last TOTP time step accepted, so a code is accepted once
        totp_last_step bigint,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )
    `,
    sql`
      CREATE TABLE recovery_codes (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        code_hash text NOT NULL,
        used_at timestamptz,
        PRIMARY KEY (user_id, code_hash)
      )
    `,
    sql`
      CREATE TABLE sessions (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        user_agent text,
        ip_address text,
        created_at timestamptz NOT NULL,
        last_used_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        revoked_reason text
      )
    `,
    sql`CREATE INDEX sessions_user ON sessions (user_id) WHERE revoked_at IS NULL`,
    sql`
      CREATE TABLE refresh_tokens (
        token_hash text PRIMARY KEY,
        session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        -- set when the token was exchanged; presenting it again revokes the session
        used_at timestamptz
      )
    `,
    sql`CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id)`,
    sql`
      CREATE TABLE one_time_tokens (
        token_hash text PRIMARY KEY,
        purpose text NOT NULL,
        user_id uuid REFERENCES users (id) ON DELETE CASCADE,
        session_id uuid,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )
    `,
    sql`CREATE INDEX one_time_tokens_user ON one_time_tokens (user_id, purpose)`,
    sql`
      CREATE TABLE workspaces (
        id uuid PRIMARY KEY,
        slug text NOT NULL UNIQUE,
        name text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )
    `,
    sql`
      CREATE TABLE memberships (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('viewer', 'editor', 'developer', 'admin', 'owner')),
        invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (workspace_id, user_id)
      )
    `,
    sql`CREATE INDEX memberships_user ON memberships (user_id)`,
    sql`
      CREATE TABLE invitations (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        email text NOT NULL,
        role text NOT NULL CHECK (role IN ('viewer', 'editor', 'developer', 'admin', 'owner')),
        token_hash text NOT NULL UNIQUE,
        invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        UNIQUE (workspace_id, email)
      )
    `,
    sql`
      CREATE TABLE api_tokens (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        name text NOT NULL,
        role text NOT NULL CHECK (role IN ('viewer', 'editor', 'developer', 'admin', 'owner')),
        hint text NOT NULL,
        token_hash text NOT NULL UNIQUE,
        created_by uuid REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL,
        last_used_at timestamptz,
        expires_at timestamptz,
        revoked_at timestamptz
      )
    `,
    sql`CREATE UNIQUE INDEX api_tokens_name ON api_tokens (workspace_id, name) WHERE revoked_at IS NULL`,
    sql`
      CREATE TABLE signing_keys (
        kid text PRIMARY KEY,
        algorithm text NOT NULL,
        public_jwk jsonb NOT NULL,
        -- the private key, encrypted with the master key
        private_key text NOT NULL,
        created_at timestamptz NOT NULL,
        retired_at timestamptz
      )
    `,
    sql`
      CREATE TABLE rate_limit_counters (
        bucket text NOT NULL,
        window_start timestamptz NOT NULL,
        hits integer NOT NULL,
        PRIMARY KEY (bucket, window_start)
      )
    `,
    sql`
      CREATE TABLE audit_log (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL,
        sequence bigint NOT NULL,
        actor jsonb NOT NULL,
        actor_display text NOT NULL,
        action text NOT NULL,
        resource_type text NOT NULL,
        resource_id text,
        summary jsonb NOT NULL,
        trace_id text,
        ip_address text,
        user_agent text,
        occurred_at timestamptz NOT NULL,
        prev_hash text,
        hash text NOT NULL,
        UNIQUE (workspace_id, sequence)
      )
    `,
    sql`CREATE INDEX audit_log_query ON audit_log (workspace_id, occurred_at DESC)`,
    // The log is append-only: no role the application connects with may change or remove a record.
    sql`
      CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'the audit log is append-only';
      END
      $$
    `,
    sql`
      CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()
    `,
    sql`
      CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
      FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()
    `
  ], { discard: true }))
