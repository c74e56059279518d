/**
 * Workflow chains' rows. The ingress secret column holds the sealed secret
 * (`Chain.ingressSecret` is `Sensitive`: it never reaches JSON); the service
 * opens it only to verify or sign a delivery.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { WorkspaceId } from "../../domain/identity/Ids.js"
import { Slug } from "../../domain/Slug.js"
import { Chain } from "../../domain/workflows/Chain.js"
import type { ChainStep } from "../../domain/workflows/ChainStep.js"
import type { ChainId } from "../../domain/workflows/Ids.js"

/** A new chain's row, its secret already sealed. */
export interface ChainInsert {
  readonly id: ChainId
  readonly workspaceId: WorkspaceId
  readonly slug: string
  readonly name: string
  readonly description: string
  readonly steps: ReadonlyArray<ChainStep>
  readonly ingressEnabled: boolean
  readonly eventsUrl: string | null
  readonly sealedSecret: string
  readonly secretHint: string
  readonly at: Date
}

/** The fields a PATCH may replace; absent ones stay. */
export interface ChainChanges {
  readonly name?: string | undefined
  readonly description?: string | undefined
  readonly steps?: ReadonlyArray<ChainStep> | undefined
  readonly ingressEnabled?: boolean | undefined
  readonly eventsUrl?: string | null | undefined
}

/** A pinned or live workflow version a chain step may name, as the workspace has it. */
export interface StepWorkflow {
  readonly id: string
  readonly liveVersion: number | null
  readonly versions: ReadonlyArray<number>
}

const BySlug = Schema.Struct({ workspaceId: WorkspaceId, slug: Slug })

const columns = (sql: SqlClient.SqlClient) =>
  sql`id, workspace_id, slug, name, description, steps, ingress_enabled, events_url, ingress_secret, ingress_secret_hint,
    ingress_secret_rotated_at, revision, created_at, updated_at`

/** The chains of a workspace, by slug. */
export class ChainRepo extends Effect.Service<ChainRepo>()("parley/persistence/ChainRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decodeChains = Schema.decodeUnknown(Schema.Array(Chain))

    const bySlug = SqlSchema.findOne({
      Request: BySlug,
      Result: Chain,
      execute: ({ slug, workspaceId }) =>
        sql`SELECT ${columns(sql)} FROM workflow_chains WHERE workspace_id = ${workspaceId} AND slug = ${slug}`
    })
    const lockBySlug = SqlSchema.findOne({
      Request: BySlug,
      Result: Chain,
      execute: ({ slug, workspaceId }) =>
        sql`SELECT ${columns(sql)} FROM workflow_chains WHERE workspace_id = ${workspaceId} AND slug = ${slug}
          FOR UPDATE`
    })

    const listed = (workspaceId: WorkspaceId, q: string | undefined) =>
      sql.and([
        sql`workspace_id = ${workspaceId}`,
        q === undefined ? sql`true` : sql`(strpos(lower(name), lower(${q})) > 0 OR strpos(slug, lower(${q})) > 0)`
      ])

    return {
      /** One page of the workspace's chains, oldest first, and how many match. */
      page: (workspaceId: WorkspaceId, q: string | undefined, limit: number, offset: number) =>
        Effect.gen(function*() {
          const rows = yield* sql`SELECT ${columns(sql)} FROM workflow_chains WHERE ${listed(workspaceId, q)}
            ORDER BY created_at, id LIMIT ${limit} OFFSET ${offset}`
          const [count] = yield* sql<{ total: number }>`SELECT count(*)::int AS total FROM workflow_chains
            WHERE ${listed(workspaceId, q)}`
          return { items: yield* decodeChains(rows), total: count?.total ?? 0 }
        }).pipe(Effect.orDie, Effect.withSpan("ChainRepo.page")),
      /** A new chain at revision 1; false when the slug is taken in the workspace. */
      insert: (row: ChainInsert) =>
        sql`INSERT INTO workflow_chains (id, workspace_id, slug, name, description, steps, ingress_enabled, events_url,
              ingress_secret, ingress_secret_hint, ingress_secret_rotated_at, revision, created_at, updated_at)
            VALUES (${row.id}, ${row.workspaceId}, ${row.slug}, ${row.name}, ${row.description},
              ${
          JSON.stringify(row.steps)
        }::jsonb, ${row.ingressEnabled}, ${row.eventsUrl}, ${row.sealedSecret}, ${row.secretHint},
              ${row.at}, 1, ${row.at}, ${row.at})
            ON CONFLICT (workspace_id, slug) DO NOTHING RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie,
          Effect.withSpan("ChainRepo.insert")
        ),
      findBySlug: (workspaceId: WorkspaceId, slug: string) =>
        bySlug({ workspaceId, slug }).pipe(Effect.orDie, Effect.withSpan("ChainRepo.findBySlug")),
      /** The chain a public ingress URL names: by its workspace's slug and its own. */
      findPublic: (workspaceSlug: string, chainSlug: string) =>
        sql`SELECT ${columns(sql)} FROM workflow_chains
          WHERE slug = ${chainSlug} AND workspace_id = (SELECT id FROM workspaces WHERE slug = ${workspaceSlug})`.pipe(
          Effect.flatMap((rows) =>
            rows.length === 0
              ? Effect.succeed(Option.none())
              : Effect.map(decodeChains(rows), (chains) => Option.some(chains[0]!))
          ),
          Effect.orDie,
          Effect.withSpan("ChainRepo.findPublic")
        ),
      /** The chain by its id, in whatever workspace (a run's events read it). */
      findById: (id: ChainId) =>
        sql`SELECT ${columns(sql)} FROM workflow_chains WHERE id = ${id}`.pipe(
          Effect.flatMap(decodeChains),
          Effect.map((chains) => Option.fromNullable(chains[0])),
          Effect.orDie,
          Effect.withSpan("ChainRepo.findById")
        ),
      /** The chain, its row locked until the transaction ends. */
      lockBySlug: (workspaceId: WorkspaceId, slug: string) =>
        lockBySlug({ workspaceId, slug }).pipe(Effect.orDie, Effect.withSpan("ChainRepo.lockBySlug")),
      /** Replace the given fields and move the revision on by one (the row locked by the caller). */
      update: (id: ChainId, changes: ChainChanges, at: Date) => {
        const sets = [
          sql`updated_at = ${at}`,
          sql`revision = revision + 1`,
          ...(changes.name === undefined ? [] : [sql`name = ${changes.name}`]),
          ...(changes.description === undefined ? [] : [sql`description = ${changes.description}`]),
          ...(changes.steps === undefined ? [] : [sql`steps = ${JSON.stringify(changes.steps)}::jsonb`]),
          ...(changes.ingressEnabled === undefined ? [] : [sql`ingress_enabled = ${changes.ingressEnabled}`]),
          ...(changes.eventsUrl === undefined ? [] : [sql`events_url = ${changes.eventsUrl}`])
        ]
        return sql`UPDATE workflow_chains SET ${sql.csv(sets)} WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("ChainRepo.update")
        )
      },
      /** A new sealed secret (the old one stops verifying at once); the revision moves on. */
      replaceSecret: (id: ChainId, sealedSecret: string, hint: string, at: Date) =>
        sql`UPDATE workflow_chains SET ingress_secret = ${sealedSecret}, ingress_secret_hint = ${hint},
            ingress_secret_rotated_at = ${at}, revision = revision + 1, updated_at = ${at}
          WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie, Effect.withSpan("ChainRepo.replaceSecret")),
      /** Delete the chain; whether it existed. */
      remove: (workspaceId: WorkspaceId, id: ChainId) =>
        sql`DELETE FROM workflow_chains WHERE workspace_id = ${workspaceId} AND id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie,
          Effect.withSpan("ChainRepo.remove")
        ),
      /** The workspace's workflows among `ids`, with their live version and published version numbers. */
      stepWorkflows: (workspaceId: WorkspaceId, ids: ReadonlyArray<string>) =>
        (ids.length === 0
          ? Effect.succeed([])
          : sql<StepWorkflow>`SELECT w.id, w.live_version,
                COALESCE((SELECT array_agg(v.version ORDER BY v.version) FROM workflow_versions v
                  WHERE v.workflow_id = w.id AND v.kind = 'published'), '{}') AS versions
              FROM workflows w WHERE w.workspace_id = ${workspaceId} AND w.id IN ${sql.in(ids)}`).pipe(
            Effect.orDie,
            Effect.withSpan("ChainRepo.stepWorkflows")
          )
    } as const
  })
}) {}
