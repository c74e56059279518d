/**
 * Chain runs and their step log. Every write the `ChainRun` workflow makes is
 * idempotent (a conditional update or an upsert keyed by run, step and
 * attempt), because an activity interrupted by a crash runs again on the
 * node that takes the run over.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import type { Actor } from "../../domain/identity/Actor.js"
import { WorkspaceId } from "../../domain/identity/Ids.js"
import type { JsonValue } from "../../domain/Json.js"
import { ChainRun, type ChainRunStatus, type ChainRunTrigger } from "../../domain/workflows/ChainRun.js"
import { ChainRunStep } from "../../domain/workflows/ChainRunStep.js"
import type { ChainStep } from "../../domain/workflows/ChainStep.js"
import { ChainId, ChainRunId } from "../../domain/workflows/Ids.js"
import type { NodeTrace, RunFailure } from "../../domain/workflows/NodeTrace.js"
import type { PendingWait } from "../../domain/workflows/PendingWait.js"

/** A new run's row. */
export interface RunInsert {
  readonly id: ChainRunId
  readonly workspaceId: WorkspaceId
  readonly chainId: ChainId
  readonly chainSlug: string
  readonly chainRevision: number
  readonly steps: ReadonlyArray<ChainStep>
  readonly trigger: ChainRunTrigger
  readonly eventType: string | null
  readonly webhookId: string | null
  readonly idempotencyKey: string | null
  readonly bodyHash: string
  readonly input: JsonValue
  readonly startedBy: Actor | null
  readonly traceId: string | null
  readonly at: Date
}

/** What the workflow reads of its run: the steps it follows, its input and its place. */
export interface RunPlan {
  readonly workspaceId: WorkspaceId
  readonly chainId: ChainId
  readonly chainSlug: string
  readonly steps: ReadonlyArray<ChainStep>
  readonly input: JsonValue
  readonly eventType: string | null
  readonly generation: number
}

/** The durable deferred a paused run waits on, by the node that waits. */
export interface WaitKey {
  readonly nodeId: string
  readonly stepId: string
  readonly key: string
}

/** The outcome of inserting a run: new, or the run that already holds the key or the webhook id. */
export type RunInserted =
  | { readonly _tag: "Inserted" }
  | { readonly _tag: "Existing"; readonly runId: ChainRunId; readonly bodyHash: string }

/** A step's earlier attempts: its output when one succeeded, and the last attempt number. */
export interface StepHistory {
  readonly stepId: string
  readonly attempts: number
  readonly succeeded: boolean
  readonly output: JsonValue
}

const columns = (sql: SqlClient.SqlClient) =>
  sql`id, workspace_id, chain_id, chain_slug, chain_revision, status, trigger, event_type, webhook_id,
    idempotency_key, input, output, error, generation, waiting_for, started_by, trace_id, created_at, updated_at, started_at,
    finished_at`

const stepColumns = (sql: SqlClient.SqlClient) =>
  sql`run_id, step_id, attempt, workflow_id, workflow_version, status, input, output, error, started_at, finished_at`

const json = (value: unknown) => JSON.stringify(value ?? null)

const ByRun = Schema.Struct({ workspaceId: WorkspaceId, chainId: ChainId, runId: ChainRunId })

export class ChainRunRepo extends Effect.Service<ChainRunRepo>()("parley/persistence/ChainRunRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decodeRuns = Schema.decodeUnknown(Schema.Array(ChainRun))
    const decodeSteps = Schema.decodeUnknown(Schema.Array(ChainRunStep))

    const find = SqlSchema.findOne({
      Request: ByRun,
      Result: ChainRun,
      execute: ({ chainId, runId, workspaceId }) =>
        sql`SELECT ${columns(sql)} FROM chain_runs
          WHERE id = ${runId} AND workspace_id = ${workspaceId} AND chain_id = ${chainId}`
    })

    const listed = (chainId: ChainId, status: ChainRunStatus | undefined, trigger: ChainRunTrigger | undefined) =>
      sql.and([
        sql`chain_id = ${chainId}`,
        status === undefined ? sql`true` : sql`status = ${status}`,
        trigger === undefined ? sql`true` : sql`trigger = ${trigger}`
      ])

    return {
      /** A new queued run, unless the chain already has a run with its key or webhook id. */
      insert: (row: RunInsert) =>
        Effect.gen(function*() {
          const inserted = yield* sql`INSERT INTO chain_runs (id, workspace_id, chain_id, chain_slug, chain_revision,
                steps, status, trigger, event_type, webhook_id, idempotency_key, body_hash, input, started_by, trace_id,
                created_at, updated_at)
              VALUES (${row.id}, ${row.workspaceId}, ${row.chainId}, ${row.chainSlug}, ${row.chainRevision},
                ${json(row.steps)}::jsonb, 'queued', ${row.trigger}, ${row.eventType}, ${row.webhookId},
                ${row.idempotencyKey}, ${row.bodyHash}, ${json(row.input)}::jsonb,
                ${row.startedBy === null ? null : json(row.startedBy)}::jsonb, ${row.traceId}, ${row.at}, ${row.at})
              ON CONFLICT DO NOTHING RETURNING id`
          if (inserted.length === 1) return { _tag: "Inserted" } satisfies RunInserted
          const [existing] = yield* sql<{ id: ChainRunId; bodyHash: string }>`SELECT id, body_hash FROM chain_runs
            WHERE chain_id = ${row.chainId}
              AND (idempotency_key = ${row.idempotencyKey} OR webhook_id = ${row.webhookId})
            ORDER BY created_at LIMIT 1`
          if (existing === undefined) {
            // A conflict on the primary key: ids are fresh UUIDs, so this cannot happen.
            return yield* Effect.dieMessage("chain run insert conflicted on neither its key nor its webhook id")
          }
          return { _tag: "Existing", runId: existing.id, bodyHash: existing.bodyHash } satisfies RunInserted
        }).pipe(Effect.orDie, Effect.withSpan("ChainRunRepo.insert")),
      find: (workspaceId: WorkspaceId, chainId: ChainId, runId: ChainRunId) =>
        find({ workspaceId, chainId, runId }).pipe(Effect.orDie, Effect.withSpan("ChainRunRepo.find")),
      /** One page of a chain's runs, newest first, and how many match. */
      page: (
        chainId: ChainId,
        filter: { readonly status?: ChainRunStatus | undefined; readonly trigger?: ChainRunTrigger | undefined },
        limit: number,
        offset: number
      ) =>
        Effect.gen(function*() {
          const rows = yield* sql`SELECT ${columns(sql)} FROM chain_runs
            WHERE ${listed(chainId, filter.status, filter.trigger)}
            ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`
          const [count] = yield* sql<{ total: number }>`SELECT count(*)::int AS total FROM chain_runs
            WHERE ${listed(chainId, filter.status, filter.trigger)}`
          return { items: yield* decodeRuns(rows), total: count?.total ?? 0 }
        }).pipe(Effect.orDie, Effect.withSpan("ChainRunRepo.page")),
      /** The run's step log, in the order the attempts started. */
      steps: (runId: ChainRunId) =>
        sql`SELECT ${stepColumns(sql)} FROM chain_run_steps WHERE run_id = ${runId}
          ORDER BY started_at, step_id, attempt`.pipe(
          Effect.flatMap(decodeSteps),
          Effect.orDie,
          Effect.withSpan("ChainRunRepo.steps")
        ),
      /** What the workflow follows; none when the run is gone (its chain deleted). */
      plan: (runId: ChainRunId) =>
        sql<RunPlan>`SELECT workspace_id, chain_id, chain_slug, steps, input, event_type, generation FROM chain_runs
          WHERE id = ${runId}`.pipe(
          Effect.map((rows) => rows[0]),
          Effect.orDie,
          Effect.withSpan("ChainRunRepo.plan")
        ),
      /**
       * The run is under way (from queued, or running again after a resume,
       * whose claimed wait is then done with); final runs, and a run taken up
       * by a later generation than `generation`, stay as they are.
       */
      markRunning: (runId: ChainRunId, generation: number, at: Date) =>
        sql`UPDATE chain_runs SET status = 'running', waiting_for = '[]'::jsonb, wait_keys = '[]'::jsonb,
            resume_payload = NULL, started_at = COALESCE(started_at, ${at}), updated_at = ${at}
          WHERE id = ${runId} AND status IN ('queued', 'running', 'paused') AND generation = ${generation}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("ChainRunRepo.markRunning")
        ),
      /** The run waits: what it waits for, and the deferred each wait blocks on. */
      pause: (runId: ChainRunId, generation: number, wait: PendingWait, key: WaitKey, at: Date) =>
        sql`UPDATE chain_runs SET status = 'paused',
            waiting_for = ${json([wait])}::jsonb, wait_keys = ${json([key])}::jsonb, updated_at = ${at}
          WHERE id = ${runId} AND status IN ('running', 'paused') AND generation = ${generation}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("ChainRunRepo.pause")
        ),
      /**
       * Takes a paused run's wait for a resume: only one resume wins (the run
       * is `running` again at once). The payload is kept with the claimed wait
       * until the run's execution takes it up (`markRunning`), so a resume cut
       * off before it completed the wait is completed again by its repeat or
       * the sweep. The wait's key, or none when the run was not paused (or not
       * at that node).
       */
      claimWait: (
        runId: ChainRunId,
        nodeId: string | undefined,
        payload: JsonValue,
        resumeKey: string | undefined,
        at: Date
      ) =>
        sql<{ waitKeys: ReadonlyArray<WaitKey>; generation: number }>`UPDATE chain_runs SET status = 'running',
            waiting_for = '[]'::jsonb, resume_key = ${resumeKey ?? null},
            resume_payload = ${json({ payload })}::jsonb, updated_at = ${at}
          WHERE id = ${runId} AND status = 'paused'
            AND (${nodeId ?? null}::text IS NULL OR wait_keys @> ${json([{ nodeId: nodeId ?? "" }])}::jsonb)
          RETURNING wait_keys, generation`.pipe(
          Effect.map((rows) => {
            const row = rows[0]
            const key = row?.waitKeys.find((wait) => nodeId === undefined || wait.nodeId === nodeId)
            return row === undefined || key === undefined ? undefined : { ...key, generation: row.generation }
          }),
          Effect.orDie,
          Effect.withSpan("ChainRunRepo.claimWait")
        ),
      /** A failed run taken up again: the next generation, running. */
      claimFailed: (runId: ChainRunId, resumeKey: string | undefined, at: Date) =>
        sql<{ generation: number }>`UPDATE chain_runs SET status = 'running', generation = generation + 1,
            error = NULL, finished_at = NULL, resume_key = ${resumeKey ?? null}, updated_at = ${at}
          WHERE id = ${runId} AND status = 'failed' RETURNING generation`.pipe(
          Effect.map((rows) => rows[0]?.generation),
          Effect.orDie,
          Effect.withSpan("ChainRunRepo.claimFailed")
        ),
      /**
       * The run ends (once: a final run keeps its end); `generation`, when
       * given, must still be the run's (an execution repeated after a crash
       * cannot end a run a later generation has taken up).
       */
      finish: (
        runId: ChainRunId,
        generation: number | undefined,
        status: "succeeded" | "failed" | "cancelled",
        output: JsonValue,
        error: RunFailure | null,
        at: Date
      ) =>
        sql<{ id: string }>`UPDATE chain_runs SET status = ${status}, output = ${json(output)}::jsonb,
            error = ${error === null ? null : json(error)}::jsonb, waiting_for = '[]'::jsonb, wait_keys = '[]'::jsonb,
            resume_payload = NULL, finished_at = ${at}, updated_at = ${at}
          WHERE id = ${runId} AND status IN ('queued', 'running', 'paused')
            AND (${generation ?? null}::integer IS NULL OR generation = ${generation ?? null}) RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie,
          Effect.withSpan("ChainRunRepo.finish")
        ),
      /** Each step's earlier attempts, for a run resumed in a later generation. */
      history: (runId: ChainRunId) =>
        sql<StepHistory>`SELECT step_id, max(attempt)::int AS attempts, bool_or(status = 'succeeded') AS succeeded,
            (array_agg(output ORDER BY attempt DESC) FILTER (WHERE status = 'succeeded'))[1] AS output
          FROM chain_run_steps WHERE run_id = ${runId} GROUP BY step_id`.pipe(
          Effect.orDie,
          Effect.withSpan("ChainRunRepo.history")
        ),
      /** An attempt of a step begins (again, after a crash: the row is kept). */
      beginStep: (
        row: {
          readonly runId: ChainRunId
          readonly stepId: string
          readonly attempt: number
          readonly generation: number
          readonly workflowId: string
          readonly workflowVersion: number | null
          readonly input: JsonValue
        },
        at: Date
      ) =>
        sql`INSERT INTO chain_run_steps (run_id, step_id, attempt, generation, workflow_id, workflow_version, status,
              input, started_at)
            VALUES (${row.runId}, ${row.stepId}, ${row.attempt}, ${row.generation}, ${row.workflowId},
              ${row.workflowVersion}, 'running', ${json(row.input)}::jsonb, ${at})
            ON CONFLICT (run_id, step_id, attempt) DO NOTHING`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("ChainRunRepo.beginStep")
        ),
      /** A step's attempt stands as given (paused, or its end: once ended it stays). */
      markStep: (
        runId: ChainRunId,
        stepId: string,
        attempt: number,
        status: "running" | "paused" | "succeeded" | "failed" | "skipped" | "cancelled",
        output: JsonValue,
        error: RunFailure | null,
        at: Date
      ) =>
        sql`UPDATE chain_run_steps SET status = ${status}, output = ${json(output)}::jsonb,
            error = ${error === null ? null : json(error)}::jsonb,
            finished_at = ${status === "running" || status === "paused" ? null : at}
          WHERE run_id = ${runId} AND step_id = ${stepId} AND attempt = ${attempt}
            AND status IN ('running', 'paused')`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("ChainRunRepo.markStep")
        ),
      /** A node execution's trace on its step's attempt, once per execution key. */
      appendTrace: (runId: ChainRunId, stepId: string, attempt: number, key: string, trace: typeof NodeTrace.Encoded) =>
        sql`UPDATE chain_run_steps SET nodes = nodes || ${json([{ key, ...trace }])}::jsonb
          WHERE run_id = ${runId} AND step_id = ${stepId} AND attempt = ${attempt}
            AND NOT nodes @> ${json([{ key }])}::jsonb`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("ChainRunRepo.appendTrace")
        ),
      /**
       * The graph a step runs: its pinned version, or the workflow's live
       * version now; none when the workflow is gone or that version is not a
       * published one.
       */
      resolveVersion: (workspaceId: WorkspaceId, workflowId: string, pinned: number | undefined) =>
        sql<{ version: number; graph: unknown }>`SELECT v.version, v.graph FROM workflows w
            JOIN workflow_versions v ON v.workflow_id = w.id
              AND v.version = COALESCE(${pinned ?? null}::integer, w.live_version)
          WHERE w.id = ${workflowId} AND w.workspace_id = ${workspaceId} AND v.kind = 'published'`.pipe(
          Effect.map((rows) => rows[0]),
          Effect.orDie,
          Effect.withSpan("ChainRunRepo.resolveVersion")
        ),
      /** Whether the run no longer runs (cancelled, ended, or gone with its chain): its workflow stops before the next node. */
      stopped: (runId: ChainRunId) =>
        sql<{ status: string }>`SELECT status FROM chain_runs WHERE id = ${runId}`.pipe(
          Effect.map((rows) =>
            rows[0]?.status !== "running" && rows[0]?.status !== "paused" && rows[0]?.status !== "queued"
          ),
          Effect.orDie,
          Effect.withSpan("ChainRunRepo.stopped")
        ),
      /** The Idempotency-Key of the run's last resume, if it had one. */
      resumeKey: (runId: ChainRunId) =>
        sql<{ resumeKey: string | null }>`SELECT resume_key FROM chain_runs WHERE id = ${runId}`.pipe(
          Effect.map((rows) => rows[0]?.resumeKey ?? null),
          Effect.orDie,
          Effect.withSpan("ChainRunRepo.resumeKey")
        ),
      /** Resumes claimed but not yet taken up by their run, claimed more than `seconds` ago (or any, for one run). */
      claimedWaits: (
        filter: { readonly runId: ChainRunId } | { readonly olderThanSeconds: number; readonly at: Date }
      ) =>
        sql<
          {
            id: ChainRunId
            generation: number
            waitKeys: ReadonlyArray<WaitKey>
            resumePayload: { payload: JsonValue }
          }
        >`
          SELECT id, generation, wait_keys, resume_payload FROM chain_runs
          WHERE status = 'running' AND resume_payload IS NOT NULL AND jsonb_array_length(wait_keys) > 0
            AND ${
          "runId" in filter
            ? sql`id = ${filter.runId}`
            : sql`updated_at < ${new Date(filter.at.getTime() - filter.olderThanSeconds * 1000)}`
        }
          LIMIT 100`.pipe(
          Effect.map((rows) =>
            rows.map((row) => ({
              runId: row.id,
              generation: row.generation,
              key: row.waitKeys[0]!.key,
              payload: row.resumePayload.payload
            }))
          ),
          Effect.orDie,
          Effect.withSpan("ChainRunRepo.claimedWaits")
        ),
      /** The attempts under way of a cancelled run end as cancelled. */
      markOpenStepsCancelled: (runId: ChainRunId, at: Date) =>
        sql`UPDATE chain_run_steps SET status = 'cancelled', finished_at = ${at}
          WHERE run_id = ${runId} AND status IN ('running', 'paused')`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("ChainRunRepo.markOpenStepsCancelled")
        ),
      /** Runs queued longer than `seconds` (their start was lost with a node): the sweep starts them again. */
      stale: (seconds: number, at: Date) =>
        sql<{ id: ChainRunId; generation: number }>`SELECT id, generation FROM chain_runs
          WHERE status = 'queued' AND created_at < ${new Date(at.getTime() - seconds * 1000)}
          ORDER BY created_at LIMIT 100`.pipe(Effect.orDie, Effect.withSpan("ChainRunRepo.stale"))
    } as const
  })
}) {}
