import { Schema } from "effect"
import { Name } from "../Name.js"
import { AiAgentDescription, Instructions } from "./AiAgent.js"
import { ConversationSettings } from "./ConversationSettings.js"
import { AiAgentGuardrail } from "./Guardrail.js"
import { AiAgentKnowledgeId } from "./Ids.js"
import { ModelSettings } from "./ModelSettings.js"
import { AiAgentTask } from "./Task.js"
import { AiAgentTool } from "./Tool.js"

/**
 * What a published version runs, frozen at publish: the draft configuration
 * and the tasks, tools and guardrails as they were (in their JSON form).
 * Knowledge is referenced, not copied: its documents stay indexed once, and
 * a version searches those it lists. Memory and evals are not part of a
 * version (memory is runtime state; evals judge versions).
 */
export const AiAgentSnapshot = Schema.Struct({
  name: Name,
  description: AiAgentDescription,
  instructions: Instructions,
  modelSettings: ModelSettings,
  conversation: ConversationSettings,
  tasks: Schema.Array(AiAgentTask.json),
  tools: Schema.Array(AiAgentTool.json),
  guardrails: Schema.Array(AiAgentGuardrail.json),
  knowledgeIds: Schema.Array(AiAgentKnowledgeId)
}).annotations({ identifier: "AiAgentSnapshot" })
export type AiAgentSnapshot = typeof AiAgentSnapshot.Type
