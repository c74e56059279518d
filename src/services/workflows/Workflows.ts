/**
 * Graph workflows (DESIGN.md §8): the draft (name, description, graph) edited
 * under `If-Match` on its revision, which every draft write bumps;
 * validate-publish; publish; the versions; restore.
 *
 * Every write locks the workflow's row first, so writes to one workflow take
 * turns: a publish numbers its version `max + 1` under that lock (two
 * publishes at once make versions N and N + 1, never one number twice, and
 * the primary key would refuse a duplicate anyway). A publish does not change
 * the draft, so it leaves the revision alone: the version records the
 * revision it snapshots, and `If-Match` on a publish means "publish what I
 * reviewed".
 *
 * Restore never loses a graph: before the draft is overwritten, a draft graph
 * that no version holds is kept as the next version, of kind `saved-draft`
 * (never validated, never live, restorable like any other). The live version
 * is unchanged by a restore.
 *
 * Creates, draft writes, deletes, publishes and restores record an audit event
 * (resource `workflow`, its id) in the same transaction. Deleting a workflow
 * takes its versions along, and is refused (`WorkflowInUse`) while a chain
 * has a run under way (queued, running or paused) with it among its steps.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import { v7 as uuidv7 } from "uuid"
import type { Origin } from "../../domain/identity/Origin.js"
import { actorOf, type Principal } from "../../domain/identity/Principal.js"
import { type ListParams, pageOf } from "../../domain/Pagination.js"
import { type Revision, RevisionConflict } from "../../domain/Revision.js"
import type { WorkflowId, WorkflowVersionNumber } from "../../domain/workflows/Ids.js"
import { WorkflowPublishRefused } from "../../domain/workflows/PublishProblem.js"
import {
  type Workflow,
  type WorkflowCreate,
  WorkflowInUse,
  type WorkflowListParams,
  WorkflowNotFound,
  type WorkflowPatch
} from "../../domain/workflows/Workflow.js"
import type { WorkflowGraph } from "../../domain/workflows/WorkflowGraph.js"
import { WorkflowVersionNotFound } from "../../domain/workflows/WorkflowVersion.js"
import { transaction } from "../../persistence/Transaction.js"
import { type WorkflowDraftWrite, WorkflowRepo } from "../../persistence/workflows/WorkflowRepo.js"
import { WorkflowVersionRepo } from "../../persistence/workflows/WorkflowVersionRepo.js"
import { AuditLog } from "../AuditLog.js"
import { workspaceEntry } from "../WorkspaceAudit.js"
import { WorkflowChecks } from "./WorkflowChecks.js"

/** The audit actions of workflows. */
type WorkflowAction =
  | "workflow.created"
  | "workflow.updated"
  | "workflow.deleted"
  | "workflow.published"
  | "workflow.restored"

/** What an audit event says of the change: field names (never values) and version numbers. */
interface WorkflowAuditDetails {
  readonly changedFields?: ReadonlyArray<string>
  readonly version?: number
  readonly previousVersion?: number | null
  readonly savedDraftVersion?: number | null
}

const workflowNotFound = (workflowId: WorkflowId) =>
  new WorkflowNotFound({ workflowId, message: `No workflow with the id ${workflowId} in this workspace` })

export class Workflows extends Effect.Service<Workflows>()("parley/services/workflows/Workflows", {
  dependencies: [WorkflowRepo.Default, WorkflowVersionRepo.Default, WorkflowChecks.Default],
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const repo = yield* WorkflowRepo
    const versions = yield* WorkflowVersionRepo
    const checks = yield* WorkflowChecks
    const log = yield* AuditLog
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const audit = (
      principal: Principal,
      origin: Origin,
      workflowId: WorkflowId,
      action: WorkflowAction,
      details: WorkflowAuditDetails = {}
    ) =>
      log.append(workspaceEntry(principal, origin, {
        action,
        resourceType: "workflow",
        resourceId: workflowId,
        summary: { before: null, after: { ...details } }
      }))

    const find = Effect.fn("Workflows.find")(function*(principal: Principal, id: WorkflowId) {
      return (yield* repo.find(principal.workspaceId, id)) ?? (yield* workflowNotFound(id))
    })

    /** The workflow, its row locked until the transaction ends. */
    const locked = Effect.fn("Workflows.locked")(function*(principal: Principal, id: WorkflowId) {
      return (yield* repo.lock(principal.workspaceId, id)) ?? (yield* workflowNotFound(id))
    })

    /** The workflow, locked; a stale `ifMatch` is a `RevisionConflict`. */
    const lock = Effect.fn("Workflows.lock")(
      function*(principal: Principal, id: WorkflowId, ifMatch: Revision | undefined) {
        const workflow = yield* locked(principal, id)
        if (ifMatch !== undefined && ifMatch !== workflow.revision) {
          return yield* new RevisionConflict({
            expected: ifMatch,
            actual: workflow.revision,
            message: `The workflow's draft is at revision ${workflow.revision}, not ${ifMatch}`
          })
        }
        return workflow
      }
    )

    /** Write the draft (the row locked by `lock`): the revision moves on by one. */
    const writeDraft = (workflow: Workflow, write: WorkflowDraftWrite) =>
      Effect.flatMap(now, (at) => repo.writeDraft(workflow.workspaceId, workflow.id, write, at)).pipe(
        Effect.flatMap((written) =>
          written === undefined ? Effect.dieMessage("the locked workflow vanished") : Effect.succeed(written)
        )
      )

    const list = Effect.fn("Workflows.list")(function*(principal: Principal, params: typeof WorkflowListParams.Type) {
      const { limit, offset } = pageOf(params)
      const { items, total } = yield* repo.page(
        { workspaceId: principal.workspaceId, status: params.status, q: params.q },
        limit,
        offset
      )
      return { items, total, limit, offset }
    })

    const create = Effect.fn("Workflows.create")(function*(
      principal: Principal,
      input: typeof WorkflowCreate.Type,
      origin: Origin
    ) {
      const workflow = yield* repo.insert({
        id: uuidv7() as WorkflowId,
        workspaceId: principal.workspaceId,
        name: input.name,
        description: input.description,
        graph: input.graph,
        at: yield* now
      })
      yield* audit(principal, origin, workflow.id, "workflow.created")
      return workflow
    }, transactional)

    const update = Effect.fn("Workflows.update")(function*(
      principal: Principal,
      id: WorkflowId,
      patch: typeof WorkflowPatch.Type,
      ifMatch: Revision | undefined,
      origin: Origin
    ) {
      const workflow = yield* lock(principal, id, ifMatch)
      const written = yield* writeDraft(workflow, patch)
      yield* audit(principal, origin, id, "workflow.updated", { changedFields: Object.keys(patch) })
      return written
    }, transactional)

    const replaceGraph = Effect.fn("Workflows.replaceGraph")(function*(
      principal: Principal,
      id: WorkflowId,
      graph: WorkflowGraph,
      ifMatch: Revision | undefined,
      origin: Origin
    ) {
      const workflow = yield* lock(principal, id, ifMatch)
      const written = yield* writeDraft(workflow, { graph })
      yield* audit(principal, origin, id, "workflow.updated", { changedFields: ["graph"] })
      return written
    }, transactional)

    const remove = Effect.fn("Workflows.delete")(function*(principal: Principal, id: WorkflowId, origin: Origin) {
      const workflow = yield* locked(principal, id)
      const chains = yield* repo.runningChains(principal.workspaceId, workflow.id)
      if (chains.length > 0) {
        return yield* new WorkflowInUse({
          workflowId: id,
          chains,
          message: `Runs of ${chains.join(", ")} are under way with this workflow; cancel them or let them end first`
        })
      }
      if (!(yield* repo.remove(principal.workspaceId, workflow.id))) return yield* workflowNotFound(id)
      // The event outlives the workflow: the workspace's audit log keeps it.
      yield* audit(principal, origin, id, "workflow.deleted")
    }, transactional)

    const validatePublish = Effect.fn("Workflows.validatePublish")(function*(principal: Principal, id: WorkflowId) {
      return yield* checks.check(yield* find(principal, id))
    })

    const publish = Effect.fn("Workflows.publish")(function*(
      principal: Principal,
      id: WorkflowId,
      ifMatch: Revision | undefined,
      note: string,
      origin: Origin
    ) {
      const workflow = yield* lock(principal, id, ifMatch)
      const check = yield* checks.check(workflow)
      if (!check.publishable) {
        return yield* new WorkflowPublishRefused({
          workflowId: id,
          revision: workflow.revision,
          problems: check.problems,
          message: `The draft at revision ${workflow.revision} has ${check.errors} error${
            check.errors === 1 ? "" : "s"
          }: ${check.problems.filter((problem) => problem.severity === "error").map((p) => p.message).join("; ")}`
            .slice(0, 4000)
        })
      }
      const version = ((yield* versions.latestNumber(id)) + 1) as WorkflowVersionNumber
      const published = yield* versions.insert({
        workflowId: id,
        version,
        kind: "published",
        graph: workflow.graph,
        revision: workflow.revision,
        note,
        publishedBy: actorOf(principal),
        at: yield* now
      })
      yield* repo.setLive(id, version)
      yield* audit(principal, origin, id, "workflow.published", { version, previousVersion: workflow.liveVersion })
      return published
    }, transactional)

    const listVersions = Effect.fn("Workflows.listVersions")(
      function*(principal: Principal, id: WorkflowId, params: ListParams) {
        const workflow = yield* find(principal, id)
        const { limit, offset } = pageOf(params)
        const { items, total } = yield* versions.page(workflow.id, limit, offset)
        return { items, total, limit, offset }
      }
    )

    const restore = Effect.fn("Workflows.restore")(function*(
      principal: Principal,
      id: WorkflowId,
      number: WorkflowVersionNumber,
      ifMatch: Revision | undefined,
      origin: Origin
    ) {
      const workflow = yield* lock(principal, id, ifMatch)
      const version = yield* versions.find(id, number)
      if (version === undefined) {
        return yield* new WorkflowVersionNotFound({
          workflowId: id,
          version: number,
          message: `The workflow has no version ${number}`
        })
      }
      let savedDraftVersion: WorkflowVersionNumber | null = null
      if (!(yield* versions.holdsDraft(id))) {
        savedDraftVersion = ((yield* versions.latestNumber(id)) + 1) as WorkflowVersionNumber
        yield* versions.insert({
          workflowId: id,
          version: savedDraftVersion,
          kind: "saved-draft",
          graph: workflow.graph,
          revision: workflow.revision,
          note: `The draft at revision ${workflow.revision}, saved before restoring version ${number}`,
          publishedBy: actorOf(principal),
          at: yield* now
        })
      }
      const restored = yield* writeDraft(workflow, { graph: version.graph })
      yield* audit(principal, origin, id, "workflow.restored", { version: number, savedDraftVersion })
      return restored
    }, transactional)

    return {
      list,
      create,
      get: find,
      update,
      delete: remove,
      replaceGraph,
      validatePublish,
      publish,
      listVersions,
      restore
    } as const
  })
}) {}
