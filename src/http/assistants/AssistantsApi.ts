import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  Assistant,
  AssistantCreate,
  AssistantId,
  AssistantNotFound,
  AssistantPatch
} from "../../domain/assistants/Assistant.js"
import {
  Intent,
  IntentCreate,
  IntentId,
  IntentNameTaken,
  IntentNotFound,
  IntentPatch
} from "../../domain/assistants/Intent.js"
import { ListParams, Page } from "../../domain/Pagination.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

const agentId = HttpApiSchema.param("agent_id", AssistantId)
const intentId = HttpApiSchema.param("intent_id", IntentId)

/** Scripted Assistants and their intents (`/v1/agents`). */
export class AssistantsApi extends HttpApiGroup.make("assistants")
  .add(
    HttpApiEndpoint.get("list", "/agents")
      .annotate(OpenApi.Summary, "List the workspace's Assistants")
      .setUrlParams(ListParams)
      .addSuccess(Page(Assistant.json))
      .pipe(requires("assistant.read"))
  )
  .add(
    HttpApiEndpoint.post("create", "/agents")
      .annotate(OpenApi.Summary, "Create an Assistant with an empty draft flow")
      .setPayload(AssistantCreate)
      .addSuccess(Assistant.json, { status: 201 })
      .pipe(requires("assistant.write"))
  )
  .add(
    HttpApiEndpoint.get("get")`/agents/${agentId}`
      .annotate(OpenApi.Summary, "Read an Assistant")
      .addSuccess(Assistant.json)
      .addError(AssistantNotFound)
      .pipe(requires("assistant.read"))
  )
  .add(
    HttpApiEndpoint.patch("update")`/agents/${agentId}`
      .annotate(OpenApi.Summary, "Change an Assistant's settings")
      .setPayload(AssistantPatch)
      .addSuccess(Assistant.json)
      .addError(AssistantNotFound)
      .pipe(requires("assistant.write"))
  )
  .add(
    HttpApiEndpoint.del("delete")`/agents/${agentId}`
      .annotate(OpenApi.Summary, "Delete an Assistant, its flow, intents and deployments")
      .addError(AssistantNotFound)
      .pipe(requires("assistant.write"))
  )
  .add(
    HttpApiEndpoint.get("listIntents")`/agents/${agentId}/intents`
      .annotate(OpenApi.Summary, "List an Assistant's intents")
      .setUrlParams(ListParams)
      .addSuccess(Page(Intent.json))
      .addError(AssistantNotFound)
      .pipe(requires("assistant.read"))
  )
  .add(
    HttpApiEndpoint.post("createIntent")`/agents/${agentId}/intents`
      .annotate(OpenApi.Summary, "Add an intent with its example utterances and slots")
      .setPayload(IntentCreate)
      .addSuccess(Intent.json, { status: 201 })
      .addError(AssistantNotFound)
      .addError(IntentNameTaken)
      .pipe(requires("assistant.write"))
  )
  .add(
    HttpApiEndpoint.patch("updateIntent")`/agents/${agentId}/intents/${intentId}`
      .annotate(OpenApi.Summary, "Change an intent")
      .setPayload(IntentPatch)
      .addSuccess(Intent.json)
      .addError(AssistantNotFound)
      .addError(IntentNotFound)
      .addError(IntentNameTaken)
      .pipe(requires("assistant.write"))
  )
  .add(
    HttpApiEndpoint.del("deleteIntent")`/agents/${agentId}/intents/${intentId}`
      .annotate(OpenApi.Summary, "Delete an intent")
      .addError(AssistantNotFound)
      .addError(IntentNotFound)
      .pipe(requires("assistant.write"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Assistants")
  .annotate(OpenApi.Description, "Scripted Assistants (the seed's /v1/agents) and their intents.")
{}
