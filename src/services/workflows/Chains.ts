/**
 * Workflow chains themselves: create (slug unique per workspace, a new
 * Standard Webhooks signing secret shown this once), list, read, update
 * (If-Match on the revision, which every write bumps) and delete; rotating
 * the signing secret (the old one stops verifying at once). Steps must name
 * workflows of the workspace, and a pinned version a published one. Each
 * write records an audit entry in the same transaction. Runs are in
 * `ChainRuns`.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option } from "effect"
import { v7 as uuidv7 } from "uuid"
import { ValidationFailed } from "../../domain/HttpErrors.js"
import type { Origin } from "../../domain/identity/Origin.js"
import type { Principal } from "../../domain/identity/Principal.js"
import { pageOf } from "../../domain/Pagination.js"
import { type Revision, RevisionConflict } from "../../domain/Revision.js"
import { InvalidSignature } from "../../domain/Signature.js"
import { generateSecret, type SignedContent, verify } from "../../domain/webhooks/StandardWebhooks.js"
import {
  type Chain,
  type ChainCreate,
  type ChainListParams,
  ChainNotFound,
  type ChainPatch,
  ChainSlugTaken
} from "../../domain/workflows/Chain.js"
import type { ChainStep } from "../../domain/workflows/ChainStep.js"
import { stepReferenceProblems } from "../../domain/workflows/ChainStepReferences.js"
import type { ChainId } from "../../domain/workflows/Ids.js"
import { transaction } from "../../persistence/Transaction.js"
import { ChainRepo } from "../../persistence/workflows/ChainRepo.js"
import { AuditLog } from "../AuditLog.js"
import { SecretBox } from "../SecretBox.js"
import { workspaceEntry } from "../WorkspaceAudit.js"

/** The context chain signing secrets are sealed for (see `sealedColumns`). */
export const CHAIN_SECRET_CONTEXT = "chain-ingress-secret"

/** The hint of a secret: its prefix and last four characters, enough to tell two apart. */
export const secretHint = (secret: string): string => `whsec_…${secret.slice(-4)}`

const chainNotFound = (slug: string) =>
  new ChainNotFound({ slug, message: `No workflow chain with the slug ${slug} in this workspace` })

export class Chains extends Effect.Service<Chains>()("parley/services/workflows/Chains", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const repo = yield* ChainRepo
    const box = yield* SecretBox
    const log = yield* AuditLog
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const checkSteps = Effect.fn("Chains.checkSteps")(function*(
      principal: Principal,
      steps: ReadonlyArray<ChainStep>
    ) {
      const ids = [...new Set(steps.map((step) => step.workflowId as string))]
      const found = yield* repo.stepWorkflows(principal.workspaceId, ids)
      const problems = stepReferenceProblems(steps, new Map(found.map((workflow) => [workflow.id, workflow])))
      if (problems.length > 0) {
        return yield* new ValidationFailed({
          message: problems.map((problem) => problem.message).join("; "),
          fields: problems.map((problem) => problem.field)
        })
      }
    })

    const find = Effect.fn("Chains.get")(function*(principal: Principal, slug: string) {
      return Option.getOrUndefined(yield* repo.findBySlug(principal.workspaceId, slug)) ??
        (yield* chainNotFound(slug))
    })

    /** The chain, its row locked until the transaction ends; a stale `ifMatch` is a `RevisionConflict`. */
    const lock = Effect.fn("Chains.lock")(function*(principal: Principal, slug: string, ifMatch: Revision | undefined) {
      const chain = Option.getOrUndefined(yield* repo.lockBySlug(principal.workspaceId, slug)) ??
        (yield* chainNotFound(slug))
      if (ifMatch !== undefined && ifMatch !== chain.revision) {
        return yield* new RevisionConflict({
          expected: ifMatch,
          actual: chain.revision,
          message: `The chain is at revision ${chain.revision}, not ${ifMatch}`
        })
      }
      return chain
    })

    const audit = (
      principal: Principal,
      origin: Origin,
      chain: Chain,
      action: string,
      after: Record<string, unknown>
    ) =>
      log.append(workspaceEntry(principal, origin, {
        action,
        resourceType: "workflow-chain",
        resourceId: chain.slug,
        summary: { before: null, after }
      }))

    const list = Effect.fn("Chains.list")(function*(principal: Principal, params: typeof ChainListParams.Type) {
      const { limit, offset } = pageOf(params)
      const { items, total } = yield* repo.page(principal.workspaceId, params.q, limit, offset)
      return { items, total, limit, offset }
    })

    const create = Effect.fn("Chains.create")(function*(
      principal: Principal,
      input: typeof ChainCreate.Type,
      origin: Origin
    ) {
      yield* checkSteps(principal, input.steps)
      const secret = generateSecret()
      const inserted = yield* repo.insert({
        id: uuidv7() as ChainId,
        workspaceId: principal.workspaceId,
        slug: input.slug,
        name: input.name,
        description: input.description,
        steps: input.steps,
        ingressEnabled: input.ingressEnabled,
        eventsUrl: input.eventsUrl,
        sealedSecret: yield* box.seal(secret, CHAIN_SECRET_CONTEXT),
        secretHint: secretHint(secret),
        at: yield* now
      })
      if (!inserted) {
        return yield* new ChainSlugTaken({
          slug: input.slug,
          message: `Another workflow chain of this workspace has the slug ${input.slug}`
        })
      }
      // Just inserted in this transaction: it is there.
      const chain = yield* Effect.orDie(find(principal, input.slug))
      yield* audit(principal, origin, chain, "workflow-chain.created", {
        name: chain.name,
        steps: chain.steps.length,
        ingressEnabled: chain.ingressEnabled
      })
      return { chain, ingressSecret: secret }
    }, transactional)

    const update = Effect.fn("Chains.update")(function*(
      principal: Principal,
      slug: string,
      patch: typeof ChainPatch.Type,
      ifMatch: Revision | undefined,
      origin: Origin
    ) {
      const chain = yield* lock(principal, slug, ifMatch)
      if (patch.steps !== undefined) yield* checkSteps(principal, patch.steps)
      yield* repo.update(chain.id, patch, yield* now)
      const updated = yield* Effect.orDie(find(principal, slug))
      yield* audit(principal, origin, updated, "workflow-chain.updated", { fields: Object.keys(patch) })
      return updated
    }, transactional)

    const remove = Effect.fn("Chains.delete")(function*(principal: Principal, slug: string, origin: Origin) {
      const chain = yield* lock(principal, slug, undefined).pipe(
        // No If-Match is given, so the revision cannot be stale.
        Effect.catchTag("RevisionConflict", Effect.die)
      )
      yield* repo.remove(principal.workspaceId, chain.id)
      yield* audit(principal, origin, chain, "workflow-chain.deleted", { name: chain.name })
    }, transactional)

    const rotateSecret = Effect.fn("Chains.rotateIngressSecret")(function*(
      principal: Principal,
      slug: string,
      origin: Origin
    ) {
      const chain = yield* lock(principal, slug, undefined).pipe(Effect.catchTag("RevisionConflict", Effect.die))
      const secret = generateSecret()
      const at = yield* now
      yield* repo.replaceSecret(chain.id, yield* box.seal(secret, CHAIN_SECRET_CONTEXT), secretHint(secret), at)
      yield* audit(principal, origin, chain, "workflow-chain.secret.rotated", { ingressSecretHint: secretHint(secret) })
      return { slug: chain.slug, secret, hint: secretHint(secret), at }
    }, transactional)

    /** The chain's signing secret in clear, to verify or sign a delivery. */
    const signingSecret = (chain: Chain) => Effect.orDie(box.openString(chain.ingressSecret, CHAIN_SECRET_CONTEXT))

    /**
     * A public delivery checked against the chain its URL names. An unknown
     * workspace or chain is refused exactly as a wrong signature is, so the
     * route reveals neither; the signature covers the raw body.
     */
    const verifyDelivery = Effect.fn("Chains.verifyDelivery")(function*(
      workspaceSlug: string,
      chainSlug: string,
      delivery: SignedContent,
      signature: string
    ) {
      const refused = (message: string) => new InvalidSignature({ scheme: "standard-webhooks", message })
      const chain = Option.getOrUndefined(yield* repo.findPublic(workspaceSlug, chainSlug))
      const nowSeconds = Math.floor((yield* Clock.currentTimeMillis) / 1000)
      const failure = verify(delivery, signature, {
        secrets: chain === undefined ? [] : [yield* signingSecret(chain)],
        nowSeconds
      })
      if (chain === undefined) {
        return yield* refused(
          failure?.reason === "stale" ? failure.message : "no signature of webhook-signature matches the body"
        )
      }
      if (failure !== undefined) return yield* refused(failure.message)
      return chain
    })

    /** The chain a verified public delivery names. */
    const findPublic = (workspaceSlug: string, chainSlug: string) =>
      Effect.flatMap(
        repo.findPublic(workspaceSlug, chainSlug),
        (found) => Option.match(found, { onNone: () => chainNotFound(chainSlug), onSome: Effect.succeed })
      )

    return {
      list,
      get: find,
      create,
      update,
      delete: remove,
      rotateSecret,
      signingSecret,
      verifyDelivery,
      findPublic
    } as const
  }),
  dependencies: [ChainRepo.Default]
}) {}
