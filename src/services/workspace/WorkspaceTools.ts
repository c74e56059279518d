/**
 * The workspace's shared HTTP tools: listed by viewers, written by developers
 * and up. A write checks the rules across fields (`ToolDefinitionRules`) and
 * that every secret it names is in the vault, records those names as the
 * tool's secret references and audits itself, all in one transaction. A tool
 * in use is deleted only with `force`. `test` runs the tool once through
 * `ToolCalls`, on the tester's behalf.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import { v7 as uuidv7 } from "uuid"
import type { Origin } from "../../domain/identity/Origin.js"
import { actorOf, type Principal } from "../../domain/identity/Principal.js"
import { pageOf } from "../../domain/Pagination.js"
import type { HttpToolDefinition } from "../../domain/workspace/HttpToolDefinition.js"
import type { WorkspaceToolId } from "../../domain/workspace/Ids.js"
import type { ResourceRef } from "../../domain/workspace/ResourceRef.js"
import { SecretReferenceMissing } from "../../domain/workspace/Secret.js"
import { definitionProblems, secretNames } from "../../domain/workspace/ToolDefinitionRules.js"
import {
  type WorkspaceTool,
  type WorkspaceToolCreate,
  WorkspaceToolInUse,
  WorkspaceToolInvalid,
  type WorkspaceToolListParams,
  WorkspaceToolNameTaken,
  WorkspaceToolNotFound,
  type WorkspaceToolPatch
} from "../../domain/workspace/WorkspaceTool.js"
import { transaction } from "../../persistence/Transaction.js"
import { WorkspaceToolRepo } from "../../persistence/workspace/WorkspaceToolRepo.js"
import { WorkspaceToolUsersRepo } from "../../persistence/workspace/WorkspaceToolUsersRepo.js"
import { AuditLog } from "../AuditLog.js"
import { workspaceEntry } from "../WorkspaceAudit.js"
import { SecretReferences } from "./SecretReferences.js"
import { SecretValues } from "./SecretValues.js"

const notFound = (id: string) => new WorkspaceToolNotFound({ toolId: id, message: "No such tool in this workspace" })
const nameTaken = (name: string) =>
  new WorkspaceToolNameTaken({ name, message: "Another tool of this workspace has this name" })

/** The tool as a resource that references secrets (and that runs read them for). */
export const toolRef = (tool: Pick<WorkspaceTool, "id" | "name">): ResourceRef => ({
  kind: "workspace-tool",
  id: tool.id,
  name: tool.name
})

/** The definition fields of a tool. */
export const definitionOf = (tool: HttpToolDefinition): HttpToolDefinition => ({
  inputSchema: tool.inputSchema,
  method: tool.method,
  url: tool.url,
  headers: tool.headers,
  query: tool.query,
  body: tool.body,
  timeoutSeconds: tool.timeoutSeconds,
  maxResponseBytes: tool.maxResponseBytes,
  allowedDomains: tool.allowedDomains
})

export class WorkspaceTools extends Effect.Service<WorkspaceTools>()("parley/services/workspace/WorkspaceTools", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const repo = yield* WorkspaceToolRepo
    const users = yield* WorkspaceToolUsersRepo
    const references = yield* SecretReferences
    const secrets = yield* SecretValues
    const log = yield* AuditLog
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    /** The definition's rules across fields, then its secrets' presence in the vault. */
    const check = Effect.fn("WorkspaceTools.check")(function*(principal: Principal, definition: HttpToolDefinition) {
      const problems = definitionProblems(definition)
      if (problems.length > 0) {
        return yield* new WorkspaceToolInvalid({
          message: problems.map((problem) => `${problem.field}: ${problem.message}`).join("; ").slice(0, 2000),
          problems
        })
      }
      const missing = yield* secrets.missing(principal.workspaceId, secretNames(definition))
      if (missing.length > 0) {
        return yield* new SecretReferenceMissing({
          names: missing,
          message: `The workspace vault holds no secret named ${missing.join(", ")}`
        })
      }
    })

    const list = Effect.fn("WorkspaceTools.list")(
      function*(principal: Principal, params: typeof WorkspaceToolListParams.Type) {
        const { limit, offset } = pageOf(params)
        const { items, total } = yield* repo.page(principal.workspaceId, params.q, limit, offset)
        return { items, total, limit, offset }
      }
    )

    const get = Effect.fn("WorkspaceTools.get")(function*(principal: Principal, id: WorkspaceToolId) {
      const tool = yield* repo.find(principal.workspaceId, id)
      return tool ?? (yield* notFound(id))
    })

    const create = Effect.fn("WorkspaceTools.create")(function*(
      principal: Principal,
      input: typeof WorkspaceToolCreate.Type,
      origin: Origin
    ) {
      const definition = definitionOf(input)
      yield* check(principal, definition)
      const id = uuidv7() as WorkspaceToolId
      const tool = yield* repo.insert(id, principal.workspaceId, actorOf(principal), {
        name: input.name,
        description: input.description,
        definition,
        at: yield* now
      })
      if (tool === undefined) return yield* nameTaken(input.name)
      yield* references.replace(principal.workspaceId, toolRef(tool), secretNames(definition))
      yield* log.append(workspaceEntry(principal, origin, {
        action: "workspace-tool.created",
        resourceType: "workspace-tool",
        resourceId: id,
        summary: { before: null, after: { name: tool.name, method: tool.method, url: tool.url } }
      }))
      return tool
    }, transactional)

    const update = Effect.fn("WorkspaceTools.update")(function*(
      principal: Principal,
      id: WorkspaceToolId,
      patch: typeof WorkspaceToolPatch.Type,
      origin: Origin
    ) {
      const current = yield* repo.lock(principal.workspaceId, id)
      if (current === undefined) return yield* notFound(id)
      const given = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined))
      const merged = {
        ...definitionOf(current),
        name: current.name,
        description: current.description,
        ...given as Partial<HttpToolDefinition & { name: string; description: string }>
      }
      const definition = definitionOf(merged)
      yield* check(principal, definition)
      const tool = yield* repo.update(principal.workspaceId, id, {
        name: merged.name,
        description: merged.description,
        definition,
        at: yield* now
      })
      if (tool === undefined) return yield* nameTaken(merged.name)
      if (tool.name !== current.name) yield* references.replace(principal.workspaceId, toolRef(current), [])
      yield* references.replace(principal.workspaceId, toolRef(tool), secretNames(definition))
      yield* log.append(workspaceEntry(principal, origin, {
        action: "workspace-tool.updated",
        resourceType: "workspace-tool",
        resourceId: id,
        summary: {
          before: { name: current.name, method: current.method, url: current.url },
          after: { name: tool.name, method: tool.method, url: tool.url, fields: Object.keys(patch) }
        }
      }))
      return tool
    }, transactional)

    const remove = Effect.fn("WorkspaceTools.delete")(function*(
      principal: Principal,
      id: WorkspaceToolId,
      force: boolean,
      origin: Origin
    ) {
      const current = yield* repo.lock(principal.workspaceId, id)
      if (current === undefined) return yield* notFound(id)
      const usedBy = yield* users.usersOf(principal.workspaceId, id)
      if (usedBy.length > 0 && !force) {
        return yield* new WorkspaceToolInUse({
          toolId: id,
          usedBy,
          message: `${usedBy.length} resource(s) use this tool: ${
            usedBy.map((user) => `${user.kind} ${user.name ?? user.id}`).join(", ")
          }; delete with ?force=true to delete it anyway`
        })
      }
      yield* repo.delete(principal.workspaceId, id)
      yield* references.replace(principal.workspaceId, toolRef(current), [])
      yield* log.append(workspaceEntry(principal, origin, {
        action: "workspace-tool.deleted",
        resourceType: "workspace-tool",
        resourceId: id,
        summary: { before: { name: current.name }, after: { forced: usedBy.length > 0 } }
      }))
    }, transactional)

    return { list, get, create, update, delete: remove } as const
  }),
  dependencies: [WorkspaceToolRepo.Default, WorkspaceToolUsersRepo.Default]
}) {}
