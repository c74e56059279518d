import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { ValidationFailed } from "../../domain/HttpErrors.js"
import { IdempotencyHeaders, IdempotencyKeyReused } from "../../domain/Idempotency.js"
import { Page } from "../../domain/Pagination.js"
import { IfMatchHeaders, RevisionConflict } from "../../domain/Revision.js"
import { Slug } from "../../domain/Slug.js"
import {
  Chain,
  ChainCreate,
  ChainListParams,
  ChainNotFound,
  ChainPatch,
  ChainSlugTaken
} from "../../domain/workflows/Chain.js"
import { ChainCreated, ChainEventRequest, ChainIngressSecretRotated } from "../../domain/workflows/ChainIngress.js"
import { ChainNotRunnable } from "../../domain/workflows/ChainNotRunnable.js"
import {
  ChainRun,
  ChainRunDetail,
  ChainRunFinished,
  ChainRunListParams,
  ChainRunNotFound,
  ChainRunNotPaused,
  ChainRunRequest,
  ChainRunResume
} from "../../domain/workflows/ChainRun.js"
import { ChainRunId } from "../../domain/workflows/Ids.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

const slug = HttpApiSchema.param("slug", Slug)
const runId = HttpApiSchema.param("run_id", ChainRunId)

/** Workflow chains, their signing secret, and their durable runs (`/v1/workflow-chains`). */
export class ChainsApi extends HttpApiGroup.make("chains")
  .add(
    HttpApiEndpoint.get("list", "/workflow-chains")
      .setUrlParams(ChainListParams)
      .addSuccess(Page(Chain.json))
      .annotate(OpenApi.Summary, "List chains")
      .pipe(requires("chain.read"))
  )
  .add(
    HttpApiEndpoint.post("create", "/workflow-chains")
      .setPayload(ChainCreate)
      .addSuccess(ChainCreated, { status: 201 })
      .addError(ChainSlugTaken)
      .addError(ValidationFailed)
      .annotate(OpenApi.Summary, "Create a chain; answers its ingress signing secret this once")
      .pipe(requires("chain.write"))
  )
  .add(
    HttpApiEndpoint.get("get")`/workflow-chains/${slug}`
      .addSuccess(Chain.json)
      .addError(ChainNotFound)
      .annotate(OpenApi.Summary, "Get a chain")
      .pipe(requires("chain.read"))
  )
  .add(
    HttpApiEndpoint.patch("update")`/workflow-chains/${slug}`
      .setHeaders(IfMatchHeaders)
      .setPayload(ChainPatch)
      .addSuccess(Chain.json)
      .addError(ChainNotFound)
      .addError(RevisionConflict)
      .addError(ValidationFailed)
      .annotate(OpenApi.Summary, "Update a chain's steps, name, description or ingress switch")
      .pipe(requires("chain.write"))
  )
  .add(
    HttpApiEndpoint.del("delete")`/workflow-chains/${slug}`
      .addError(ChainNotFound)
      .annotate(OpenApi.Summary, "Delete a chain (its unfinished runs are cancelled)")
      .pipe(requires("chain.write"))
  )
  .add(
    HttpApiEndpoint.post("rotateIngressSecret")`/workflow-chains/${slug}/ingress-secret/rotate`
      .addSuccess(ChainIngressSecretRotated)
      .addError(ChainNotFound)
      .annotate(OpenApi.Summary, "Replace the ingress signing secret; the old one stops verifying at once")
      .pipe(requires("chain.rotate"))
  )
  .add(
    HttpApiEndpoint.post("run")`/workflow-chains/${slug}/run`
      .setHeaders(IdempotencyHeaders)
      .setPayload(ChainRunRequest)
      .addSuccess(ChainRun.json, { status: 202 })
      .addError(ChainNotFound)
      .addError(ChainNotRunnable)
      .addError(IdempotencyKeyReused)
      .annotate(
        OpenApi.Summary,
        "Start a run with an input; a retry with the same Idempotency-Key answers the same run"
      )
      .pipe(requires("chain.run"))
  )
  .add(
    HttpApiEndpoint.post("ingress")`/workflow-chains/${slug}/ingress`
      .setHeaders(IdempotencyHeaders)
      .setPayload(ChainEventRequest)
      .addSuccess(ChainRun.json, { status: 202 })
      .addError(ChainNotFound)
      .addError(ChainNotRunnable)
      .addError(IdempotencyKeyReused)
      .annotate(
        OpenApi.Summary,
        "Deliver an event as an authenticated caller; starts a run (ingressEnabled is not needed)"
      )
      .pipe(requires("chain.run"))
  )
  .add(
    HttpApiEndpoint.get("listRuns")`/workflow-chains/${slug}/runs`
      .setUrlParams(ChainRunListParams)
      .addSuccess(Page(ChainRun.json))
      .addError(ChainNotFound)
      .annotate(OpenApi.Summary, "List a chain's runs, newest first")
      .pipe(requires("chain.read"))
  )
  .add(
    HttpApiEndpoint.get("getRun")`/workflow-chains/${slug}/runs/${runId}`
      .addSuccess(ChainRunDetail)
      .addError(ChainNotFound)
      .addError(ChainRunNotFound)
      .annotate(OpenApi.Summary, "Get a run with its step log")
      .pipe(requires("chain.read"))
  )
  .add(
    HttpApiEndpoint.post("resumeRun")`/workflow-chains/${slug}/runs/${runId}/resume`
      .setHeaders(IdempotencyHeaders)
      .setPayload(ChainRunResume)
      .addSuccess(ChainRun.json, { status: 202 })
      .addError(ChainNotFound)
      .addError(ChainRunNotFound)
      .addError(ChainRunNotPaused)
      .addError(IdempotencyKeyReused)
      .addError(ValidationFailed)
      .annotate(OpenApi.Summary, "Supply the payload a paused run waits for; the run continues")
      .pipe(requires("chain.run"))
  )
  .add(
    HttpApiEndpoint.post("cancelRun")`/workflow-chains/${slug}/runs/${runId}/cancel`
      .addSuccess(ChainRun.json, { status: 202 })
      .addError(ChainNotFound)
      .addError(ChainRunNotFound)
      .addError(ChainRunFinished)
      .annotate(OpenApi.Summary, "Cancel a queued, running or paused run")
      .pipe(requires("chain.run"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Workflow chains")
  .annotate(
    OpenApi.Description,
    "Chains of workflow steps (ordered or branching, with JSONata input mappings and conditions), run as durable runs that pause on waits and resume."
  )
{}
