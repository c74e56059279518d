import { HttpApiGroup, OpenApi } from "@effect/platform"
import {
  AiAgentGuardrail,
  AiAgentGuardrailCreate,
  AiAgentGuardrailInvalid,
  AiAgentGuardrailListParams,
  AiAgentGuardrailNameTaken,
  AiAgentGuardrailNotFound,
  AiAgentGuardrailPatch,
  AiAgentGuardrailPatchById
} from "../../domain/aiAgents/Guardrail.js"
import { AiAgentGuardrailId } from "../../domain/aiAgents/Ids.js"
import { Authentication } from "../middleware/Authentication.js"
import { collectionEndpoints, draftWrite } from "./collectionEndpoints.js"

const guardrails = collectionEndpoints({
  path: "guardrails",
  itemParam: "guardrail_id",
  id: AiAgentGuardrailId,
  noun: ["guardrail", "guardrails"],
  item: AiAgentGuardrail.json,
  detail: AiAgentGuardrail.json,
  listParams: AiAgentGuardrailListParams,
  create: AiAgentGuardrailCreate,
  patch: AiAgentGuardrailPatch,
  patchById: AiAgentGuardrailPatchById,
  notFound: AiAgentGuardrailNotFound
})

const rules = "`jailbreak` and `prompt-injection` run at the `input` stage, `allowed-tool-domains` at `output`; " +
  "`redact` applies to `pii` and `max-length` only; patterns must compile. Otherwise `AiAgentGuardrailInvalid`."

/** An AI agent's guardrails: input and output rules with their actions (`/v1/ai-agents/{slug}/guardrails`). */
export class AiAgentGuardrailsApi extends HttpApiGroup.make("aiAgentGuardrails")
  .add(guardrails.list.annotate(OpenApi.Description, "By name."))
  .add(
    draftWrite(guardrails.create)
      .addError(AiAgentGuardrailNameTaken)
      .addError(AiAgentGuardrailInvalid)
      .annotate(OpenApi.Description, rules)
  )
  .add(guardrails.get)
  .add(
    draftWrite(guardrails.update)
      .addError(AiAgentGuardrailNameTaken)
      .addError(AiAgentGuardrailInvalid)
      .annotate(OpenApi.Description, `A new \`rule\` replaces the old one whole. ${rules}`)
  )
  .add(draftWrite(guardrails.delete))
  .add(
    draftWrite(guardrails.updateById)
      .addError(AiAgentGuardrailNameTaken)
      .addError(AiAgentGuardrailInvalid)
  )
  .add(draftWrite(guardrails.deleteById))
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "AI agent guardrails")
  .annotate(
    OpenApi.Description,
    "Rules checked on every turn: PII detection and redaction, blocked topics, jailbreak and prompt-injection " +
      "patterns, allowed tool domains and maximum length, each with an action (block, redact, warn, handoff). " +
      "Part of the draft: writes take `If-Match` with the agent's revision and bump it."
  )
{}
