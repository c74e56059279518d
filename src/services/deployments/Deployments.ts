/**
 * Deployments of Assistants: a deployment freezes the draft as it stands (or
 * exactly the revision the caller names) into an immutable snapshot, refused
 * when the draft has analysis errors, and hands out its embed token once:
 * only the token's SHA-256 is kept. Revoking is final and idempotent.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option, Redacted, Schema } from "effect"
import { v7 as uuidv7 } from "uuid"
import { PublicUrl } from "../../config/Settings.js"
import type { AssistantId } from "../../domain/assistants/Assistant.js"
import { ParleyDocument } from "../../domain/assistants/ParleyDocument.js"
import {
  type DeploymentCreate,
  DeploymentId,
  DeploymentNotFound,
  DeploymentRefused,
  type DeploymentStatus
} from "../../domain/deployments/Deployment.js"
import { deploymentFindings } from "../../domain/deployments/DeploymentChecks.js"
import {
  EMBED_TOKEN_PREFIX,
  embedSnippet,
  nluModelVersionOf,
  snapshotOf,
  tokenHintOf
} from "../../domain/deployments/DeploymentSnapshot.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { Origin } from "../../domain/identity/Origin.js"
import { actorOf, type Principal } from "../../domain/identity/Principal.js"
import { type ListParams, type Page, pageOf } from "../../domain/Pagination.js"
import { RevisionConflict } from "../../domain/Revision.js"
import { DeploymentRepo, type DeploymentRow } from "../../persistence/deployments/DeploymentRepo.js"
import { transaction } from "../../persistence/Transaction.js"
import { Assistants, currentDate } from "../assistants/Assistants.js"
import { AuditLog } from "../AuditLog.js"
import { generateToken, hashToken } from "../OpaqueTokens.js"
import { workspaceEntry } from "../WorkspaceAudit.js"

const encodeSnapshot = Schema.encode(ParleyDocument)

const notFound = (deploymentId: string) =>
  new DeploymentNotFound({ deploymentId, message: `No deployment ${deploymentId} in this workspace` })

/** What an audit record shows of a deployment (never its token or snapshot). */
const described = (deployment: DeploymentRow) => ({
  agentId: deployment.agentId,
  name: deployment.name,
  revision: deployment.revision,
  status: deployment.status,
  allowedOrigins: deployment.allowedOrigins,
  rateLimitPerMinute: deployment.rateLimitPerMinute,
  tokenHint: deployment.tokenHint
})

export class Deployments extends Effect.Service<Deployments>()("parley/services/deployments/Deployments", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const repo = yield* DeploymentRepo
    const assistants = yield* Assistants
    const log = yield* AuditLog
    const publicUrl = yield* PublicUrl

    const inTransaction = <A, E, R>(effect: Effect.Effect<A, E, R>) => transactional(effect)

    /** Deploy the Assistant's draft: a snapshot and a new token, shown in this answer only. */
    const create = Effect.fn("Deployments.create")(
      function*(principal: Principal, agentId: AssistantId, request: DeploymentCreate, origin: Origin) {
        const draft = yield* assistants.draftOf(principal.workspaceId, agentId)
        const revision = draft.assistant.revision
        if (request.revision !== undefined && request.revision !== revision) {
          return yield* new RevisionConflict({
            expected: request.revision,
            actual: revision,
            message: `The draft is at revision ${revision}, not ${request.revision}: nothing was deployed`
          })
        }
        const snapshot = snapshotOf(draft)
        const errors = deploymentFindings(snapshot).filter((finding) => finding.severity === "error")
        if (errors.length > 0) {
          return yield* new DeploymentRefused({
            agentId,
            revision,
            findings: errors,
            message: `The draft at revision ${revision} has ${errors.length} error(s); fix them and deploy again`
          })
        }
        const token = generateToken(EMBED_TOKEN_PREFIX)
        const id = DeploymentId.make(uuidv7())
        yield* repo.insert({
          id,
          workspaceId: principal.workspaceId,
          agentId,
          name: request.name,
          revision,
          nluModelVersion: nluModelVersionOf(snapshot),
          intents: snapshot.intents.map((intent) => intent.name),
          allowedOrigins: request.allowedOrigins,
          rateLimitPerMinute: request.rateLimitPerMinute,
          tokenHash: hashToken(token),
          tokenHint: tokenHintOf(token),
          snapshot: yield* Effect.orDie(encodeSnapshot(snapshot)),
          createdBy: actorOf(principal),
          createdAt: yield* currentDate
        })
        const deployment = yield* repo.findById(principal.workspaceId, id).pipe(
          Effect.flatMap(
            Option.match({ onNone: () => Effect.dieMessage("Deployment vanished"), onSome: Effect.succeed })
          )
        )
        yield* log.append(workspaceEntry(principal, origin, {
          action: "deployment.created",
          resourceType: "deployment",
          resourceId: id,
          summary: { before: null, after: described(deployment) }
        }))
        return {
          deployment,
          embedToken: Redacted.make(token),
          snippet: Redacted.make(embedSnippet(publicUrl, token))
        }
      },
      inTransaction
    )

    /** One page of the workspace's deployments, newest first. */
    const list = Effect.fn("Deployments.list")(function*(
      workspaceId: WorkspaceId,
      params: ListParams & {
        readonly agentId?: AssistantId | undefined
        readonly status?: DeploymentStatus | undefined
      }
    ) {
      const { limit, offset } = pageOf(params)
      const [items, total] = yield* repo.page(
        workspaceId,
        { agentId: params.agentId, status: params.status },
        limit,
        offset
      )
      return { items, total, limit, offset } satisfies Page<DeploymentRow>
    })

    const get = Effect.fn("Deployments.get")(function*(workspaceId: WorkspaceId, id: DeploymentId) {
      const found = yield* repo.findById(workspaceId, id)
      if (Option.isNone(found)) return yield* notFound(id)
      return found.value
    })

    /** Revoke: the token stops working at once. Revoking a revoked deployment changes nothing. */
    const revoke = Effect.fn("Deployments.revoke")(
      function*(principal: Principal, id: DeploymentId, origin: Origin) {
        const revoked = yield* repo.revoke(principal.workspaceId, id, actorOf(principal), yield* currentDate)
        if (Option.isNone(revoked)) return yield* get(principal.workspaceId, id)
        yield* log.append(workspaceEntry(principal, origin, {
          action: "deployment.revoked",
          resourceType: "deployment",
          resourceId: id,
          summary: { before: { status: "live" }, after: { status: "revoked" } }
        }))
        return revoked.value
      },
      inTransaction
    )

    return { create, list, get, revoke } as const
  }),
  dependencies: [DeploymentRepo.Default]
}) {}
