import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { AiAgentNotFound } from "../../domain/aiAgents/AiAgent.js"
import { AiAgentVersionNotFound } from "../../domain/aiAgents/AiAgentVersion.js"
import {
  AiAgentEval,
  AiAgentEvalCreate,
  AiAgentEvalInvalid,
  AiAgentEvalListParams,
  AiAgentEvalNameTaken,
  AiAgentEvalNotFound,
  AiAgentEvalPatch,
  AiAgentEvalPatchById
} from "../../domain/aiAgents/Eval.js"
import { AiAgentEvalRun, AiAgentEvalRunListParams, AiAgentEvalRunRequest } from "../../domain/aiAgents/EvalRun.js"
import {
  AiAgentEvalSuiteNotRunnable,
  AiAgentEvalSuiteResult,
  MAX_SUITE_CASES
} from "../../domain/aiAgents/EvalSuite.js"
import { AiAgentEvalId, AiAgentVersionParam } from "../../domain/aiAgents/Ids.js"
import { Page } from "../../domain/Pagination.js"
import { Slug } from "../../domain/Slug.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"
import { collectionEndpoints } from "./collectionEndpoints.js"

const evals = collectionEndpoints({
  path: "evals",
  itemParam: "eid",
  id: AiAgentEvalId,
  noun: ["eval case", "eval cases"],
  item: AiAgentEval.json,
  detail: AiAgentEval.json,
  listParams: AiAgentEvalListParams,
  create: AiAgentEvalCreate,
  patch: AiAgentEvalPatch,
  patchById: AiAgentEvalPatchById,
  notFound: AiAgentEvalNotFound
})

const slug = HttpApiSchema.param("slug", Slug)
const eid = HttpApiSchema.param("eid", AiAgentEvalId)
const vid = HttpApiSchema.param("vid", AiAgentVersionParam)

/** An AI agent's eval cases, their runs, and the eval runs of its versions (`/v1/ai-agents/{slug}/evals`). */
export class AiAgentEvalsApi extends HttpApiGroup.make("aiAgentEvals")
  .add(evals.list.annotate(OpenApi.Description, "By name."))
  .add(evals.create.addError(AiAgentEvalNameTaken).addError(AiAgentEvalInvalid))
  .add(evals.get)
  .add(evals.update.addError(AiAgentEvalNameTaken).addError(AiAgentEvalInvalid))
  .add(evals.delete.annotate(OpenApi.Description, "Past runs keep the case's results."))
  .add(evals.updateById.addError(AiAgentEvalNameTaken).addError(AiAgentEvalInvalid))
  .add(evals.deleteById)
  .add(
    HttpApiEndpoint.post("run")`/ai-agents/${slug}/evals/${eid}/run`
      .setPayload(AiAgentEvalRunRequest)
      .addSuccess(AiAgentEvalRun.json)
      .addError(AiAgentNotFound)
      .addError(AiAgentEvalNotFound)
      .addError(AiAgentVersionNotFound)
      .annotate(OpenApi.Summary, "Run one eval case")
      .annotate(
        OpenApi.Description,
        "Runs the case against the draft (`{}`) or a published `version`, waits for it and answers the finished " +
          "run (`passed`, `failed` or `error`), which is also stored: a version's runs are listed under " +
          "`/versions/{vid}/eval-runs`. A model failure during the case (or a judge that cannot be reached) is an " +
          "`error` result scoring 0, not a 502; a tool that fails is what the model reads, as in any turn, and the " +
          "case is judged on the reply. Tool mocks answer the tools they name instead of calling them. Disabled " +
          "cases run too."
      )
      .pipe(requires("ai-agent.write"))
  )
  .add(
    HttpApiEndpoint.post("runSuite")`/ai-agents/${slug}/evals/run`
      .setPayload(AiAgentEvalRunRequest)
      .addSuccess(AiAgentEvalSuiteResult)
      .addError(AiAgentNotFound)
      .addError(AiAgentVersionNotFound)
      .addError(AiAgentEvalSuiteNotRunnable)
      .annotate(OpenApi.Summary, "Run the eval suite")
      .annotate(
        OpenApi.Description,
        "Runs every enabled case (the suite the publish gate runs) against the draft (`{}`) or a published " +
          "`version`, a few at a time, waits for them and answers the finished run with the share of cases " +
          "passed and the cases' latencies added up. The run is stored as one `manual` run with a result per " +
          "case, and only once every case has finished: a request cut short (the client gone, the time-out) " +
          "stores nothing. A version's runs are listed under `/versions/{vid}/eval-runs`. No enabled case, or " +
          `more than ${MAX_SUITE_CASES}, is a 422. Case failures are results as in a one-case run.`
      )
      .pipe(requires("ai-agent.write"))
  )
  .add(
    HttpApiEndpoint.get("listEvalRuns")`/ai-agents/${slug}/versions/${vid}/eval-runs`
      .setUrlParams(AiAgentEvalRunListParams)
      .addSuccess(Page(AiAgentEvalRun.json))
      .addError(AiAgentNotFound)
      .addError(AiAgentVersionNotFound)
      .annotate(OpenApi.Summary, "List a version's eval runs")
      .annotate(
        OpenApi.Description,
        "Newest first: single-case runs and the publish gate's suite runs, each with per-case results and every " +
          "expectation's outcome."
      )
      .pipe(requires("ai-agent.read"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "AI agent evals")
  .annotate(
    OpenApi.Description,
    "Eval cases (a conversation and expectations: contains, not-contains, regex, tool called, JSON schema, an " +
      "LLM-judged rubric; a weight and tags) and their runs against the draft or a version. Publishing may run " +
      "the enabled suite as a gate. Not part of the draft: writes do not bump the agent's revision."
  )
{}
