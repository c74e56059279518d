import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { AgentLlmSettings, AgentLlmSettingsPatch } from "../../domain/settings/AgentLlmSettings.js"
import { AgentOpsSettings, AgentOpsSettingsPatch } from "../../domain/settings/AgentOpsSettings.js"
import { LlmConnectionTestRequest, LlmConnectionTestResult } from "../../domain/settings/LlmConnectionTest.js"
import { LlmInfo } from "../../domain/settings/LlmInfo.js"
import { SettingsInvalid } from "../../domain/settings/SettingsInvalid.js"
import { SecretReferenceMissing } from "../../domain/workspace/Secret.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

const llmInfo = <const Name extends string>(name: Name, path: `/${string}`) =>
  HttpApiEndpoint.get(name, path)
    .addSuccess(LlmInfo)
    .annotate(OpenApi.Summary, "The LLM in force for agents, where it was set, and whether a key is configured")
    .pipe(requires("settings.read"))

/** The workspace's agent settings: operations (`agent-ops`), the LLM (`agent-llm`) and the LLM in force. */
export class AgentSettingsApi extends HttpApiGroup.make("agentSettings")
  .add(
    HttpApiEndpoint.get("getAgentOps", "/workspaces/agent-ops")
      .addSuccess(AgentOpsSettings.json)
      .annotate(OpenApi.Summary, "Read the agent-ops settings")
      .pipe(requires("settings.read"))
  )
  .add(
    HttpApiEndpoint.patch("updateAgentOps", "/workspaces/agent-ops")
      .setPayload(AgentOpsSettingsPatch)
      .addSuccess(AgentOpsSettings.json)
      .addError(SettingsInvalid)
      .addError(SecretReferenceMissing)
      .annotate(OpenApi.Summary, "Change publish gates, retention, token budgets, rate limits or the handoff target")
      .pipe(requires("settings.write"))
  )
  .add(
    HttpApiEndpoint.get("getAgentLlm", "/workspaces/agent-llm")
      .addSuccess(AgentLlmSettings.json)
      .annotate(OpenApi.Summary, "Read the workspace's LLM settings (keys by vault name only)")
      .pipe(requires("settings.read"))
  )
  .add(
    HttpApiEndpoint.patch("updateAgentLlm", "/workspaces/agent-llm")
      .setPayload(AgentLlmSettingsPatch)
      .addSuccess(AgentLlmSettings.json)
      .addError(SettingsInvalid)
      .addError(SecretReferenceMissing)
      .annotate(OpenApi.Summary, "Change the primary or fallback LLM")
      .pipe(requires("settings.write"))
  )
  .add(
    HttpApiEndpoint.post("testAgentLlm", "/workspaces/agent-llm/test")
      .setPayload(LlmConnectionTestRequest)
      .addSuccess(LlmConnectionTestResult)
      .addError(SettingsInvalid)
      .addError(SecretReferenceMissing)
      .annotate(OpenApi.Summary, "Make a real round trip with the saved or a proposed LLM")
      .annotate(
        OpenApi.Description,
        "A provider's failure is reported in the answer (`ok: false` with `error`), not as a 502."
      )
      .pipe(requires("settings.write"))
  )
  .add(llmInfo("agentLlmInfo", "/runtime/agent-llm-info"))
  .add(llmInfo("llmConfig", "/runtime/llm-config"))
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Agent settings")
  .annotate(
    OpenApi.Description,
    "Workspace settings for AI agents: publish gates, retention, token budgets, rate limits, handoff, and the LLM with its fallback. `/v1/runtime/agent-llm-info` and `/v1/runtime/llm-config` are one operation under the seed's two paths."
  )
{}
