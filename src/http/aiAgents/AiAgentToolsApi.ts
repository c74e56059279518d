import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { AiAgentNotFound } from "../../domain/aiAgents/AiAgent.js"
import { AiAgentToolId } from "../../domain/aiAgents/Ids.js"
import {
  AiAgentTool,
  AiAgentToolCreate,
  AiAgentToolInvalid,
  AiAgentToolListParams,
  AiAgentToolNameTaken,
  AiAgentToolNotFound,
  AiAgentToolPatch,
  AiAgentToolPatchById
} from "../../domain/aiAgents/Tool.js"
import {
  AiAgentToolInputInvalid,
  AiAgentToolTestRequest,
  AiAgentToolTestResult
} from "../../domain/aiAgents/ToolTest.js"
import { UpstreamFailed } from "../../domain/HttpErrors.js"
import { Slug } from "../../domain/Slug.js"
import { SecretReferenceMissing } from "../../domain/workspace/Secret.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"
import { collectionEndpoints, draftWrite } from "./collectionEndpoints.js"

const tools = collectionEndpoints({
  path: "tools",
  itemParam: "tid",
  id: AiAgentToolId,
  noun: ["tool", "tools"],
  item: AiAgentTool.json,
  detail: AiAgentTool.json,
  listParams: AiAgentToolListParams,
  create: AiAgentToolCreate,
  patch: AiAgentToolPatch,
  patchById: AiAgentToolPatchById,
  notFound: AiAgentToolNotFound,
  // A tool can send a vault secret to a host of its choosing: as sensitive as a workspace tool.
  writeAccess: "tool.write"
})

const slug = HttpApiSchema.param("slug", Slug)
const tid = HttpApiSchema.param("tid", AiAgentToolId)

const writeDescription = "A header or query value may name a vault secret (`{ \"secret\": \"NAME\" }`), which must " +
  "exist (`SecretReferenceMissing`); its value is resolved when the tool runs and never returned. A workspace tool " +
  "is referenced, not copied: later changes to it apply."

/** An AI agent's tools: inline HTTP tools, shared workspace tools and built-ins (`/v1/ai-agents/{slug}/tools`). */
export class AiAgentToolsApi extends HttpApiGroup.make("aiAgentTools")
  .add(tools.list.annotate(OpenApi.Description, "By name."))
  .add(
    draftWrite(tools.create)
      .addError(AiAgentToolNameTaken)
      .addError(AiAgentToolInvalid)
      .addError(SecretReferenceMissing)
      .annotate(OpenApi.Description, writeDescription)
  )
  .add(tools.get)
  .add(
    draftWrite(tools.update)
      .addError(AiAgentToolNameTaken)
      .addError(AiAgentToolInvalid)
      .addError(SecretReferenceMissing)
      .annotate(OpenApi.Description, `A new \`config\` replaces the old one whole. ${writeDescription}`)
  )
  .add(draftWrite(tools.delete).annotate(OpenApi.Description, "Tasks that required the tool no longer list it."))
  .add(
    draftWrite(tools.updateById)
      .addError(AiAgentToolNameTaken)
      .addError(AiAgentToolInvalid)
      .addError(SecretReferenceMissing)
  )
  .add(draftWrite(tools.deleteById))
  .add(
    HttpApiEndpoint.post("test")`/ai-agents/${slug}/tools/${tid}/test`
      .setPayload(AiAgentToolTestRequest)
      .addSuccess(AiAgentToolTestResult)
      .addError(AiAgentNotFound)
      .addError(AiAgentToolNotFound)
      .addError(AiAgentToolInputInvalid)
      .addError(AiAgentToolInvalid)
      .addError(SecretReferenceMissing)
      .addError(UpstreamFailed)
      .annotate(OpenApi.Summary, "Run a tool once with sample input")
      .annotate(
        OpenApi.Description,
        "Checks `input` against the tool's input schema, fills the templates, resolves secrets and sends the " +
          "request: the answer reports the status, latency, the start of the response (16 KiB) and the request as " +
          "sent, with secret values masked. Any answer of the upstream is a result (`ok: false` for a non-2xx " +
          "status or a body over `maxResponseBytes`); no answer at all (DNS, connection, TLS, a host outside the " +
          "allowed domains) is `UpstreamFailed`, and a time-out is `Timeout`. Built-ins run dry: `knowledge_search` " +
          "searches, `remember` and `handoff` only report what they would do. Nothing is stored."
      )
      .pipe(requires("tool.write"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "AI agent tools")
  .annotate(
    OpenApi.Description,
    "What an AI agent can call: inline HTTP tools (a JSON-schema input and a request template with secrets from " +
      "the vault), shared workspace tools by reference, and the built-ins `knowledge_search`, `remember` and " +
      "`handoff`. Part of the draft: writes take `If-Match` with the agent's revision and bump it."
  )
{}
