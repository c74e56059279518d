import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { NotReady, ValidationFailed } from "../../domain/HttpErrors.js"
import { IdempotencyHeaders, IdempotencyKeyReused } from "../../domain/Idempotency.js"
import { ListParams, Page } from "../../domain/Pagination.js"
import { WorkflowId, WorkflowSimSessionId } from "../../domain/workflows/Ids.js"
import { WorkflowNotFound } from "../../domain/workflows/Workflow.js"
import {
  WorkflowSimSession,
  WorkflowSimSessionEnded,
  WorkflowSimSessionNotFound,
  WorkflowSimSessionStart
} from "../../domain/workflows/WorkflowSimSession.js"
import {
  WorkflowSimSessionStarted,
  WorkflowSimTurnRequest,
  WorkflowSimTurnResult
} from "../../domain/workflows/WorkflowSimTurn.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

const workflowId = HttpApiSchema.param("id", WorkflowId)
const sessionId = HttpApiSchema.param("id", WorkflowSimSessionId)

/** The workflow simulator: conversational sessions on a workflow's draft, and their history. */
export class WorkflowSimulatorApi extends HttpApiGroup.make("workflowSimulator")
  .add(
    HttpApiEndpoint.post("startSession")`/runtime/workflows/${workflowId}/sessions`
      .setPayload(WorkflowSimSessionStart)
      .addSuccess(WorkflowSimSessionStarted, { status: 201 })
      .addError(WorkflowNotFound)
      .addError(ValidationFailed)
      .addError(NotReady)
      .annotate(OpenApi.Summary, "Start a simulator session on the draft; answers its opening outputs")
      .annotate(
        OpenApi.Description,
        "Runs the draft (as it is now) from its trigger with the given input until the first input or wait node, or the end. Input that does not match the trigger's declared inputs is a 400."
      )
      .pipe(requires("runtime.simulate"))
  )
  .add(
    HttpApiEndpoint.post("sendTurn")`/runtime/workflows/sessions/${sessionId}/turns`
      .setHeaders(IdempotencyHeaders)
      .setPayload(WorkflowSimTurnRequest)
      .addSuccess(WorkflowSimTurnResult)
      .addError(WorkflowSimSessionNotFound)
      .addError(WorkflowSimSessionEnded)
      .addError(IdempotencyKeyReused)
      .addError(ValidationFailed)
      .addError(NotReady)
      .annotate(OpenApi.Summary, "Send a message or payload to a simulator session")
      .annotate(
        OpenApi.Description,
        "Answers the outputs and node trace of this turn and where the session now stands. A retry with the same Idempotency-Key returns the stored result; a `text` where the wait expects a payload (or the reverse) is a 400."
      )
      .pipe(requires("runtime.simulate"))
  )
  .add(
    HttpApiEndpoint.get("listSessions")`/runtime/workflows/${workflowId}/sessions`
      .setUrlParams(ListParams)
      .addSuccess(Page(WorkflowSimSession.json))
      .addError(WorkflowNotFound)
      .annotate(OpenApi.Summary, "List a workflow's simulator sessions, newest first")
      .pipe(requires("workflow.read"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Workflow simulator")
  .annotate(
    OpenApi.Description,
    "Simulator sessions run a workflow's draft conversationally (the WorkflowSimSession entity), turn by turn, exactly once per idempotency key."
  )
{}
