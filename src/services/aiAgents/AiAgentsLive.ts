/**
 * AI agents assembled (DESIGN.md §7): the services behind `/v1/ai-agents`.
 * It needs the workspace administration below it (vault, shared tools, the
 * tool-call service, LLM providers, agent settings); the runtime above it
 * (the `AgentConversation` entity) uses these services.
 */
import { Layer } from "effect"
import { AiAgentRepo } from "../../persistence/aiAgents/AiAgentRepo.js"
import { AgentSnapshots } from "./AgentSnapshots.js"
import { AiAgentTasks } from "./AiAgentTasks.js"
import { AiAgentTools } from "./AiAgentTools.js"
import { AiAgentToolTests } from "./AiAgentToolTests.js"

export const AiAgentsLive = Layer.mergeAll(
  AiAgentRepo.Default,
  AgentSnapshots.Default,
  AiAgentTasks.Default,
  AiAgentTools.Default,
  AiAgentToolTests.Default
)
