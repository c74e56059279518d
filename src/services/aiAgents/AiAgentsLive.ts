/**
 * AI agents assembled (DESIGN.md §7): the services behind `/v1/ai-agents`.
 * It needs the workspace administration below it (vault, shared tools, the
 * tool-call service, LLM providers, agent settings); the runtime above it
 * (the `AgentConversation` entity) uses these services.
 */
import { Layer } from "effect"
import { AiAgentRepo } from "../../persistence/aiAgents/AiAgentRepo.js"
import { AgentAudit } from "./AgentAudit.js"
import { AgentConversations } from "./AgentConversations.js"
import { AgentEvalRunner } from "./AgentEvalRunner.js"
import { AgentFromDraft } from "./AgentFromDraft.js"
import { AgentMemory } from "./AgentMemory.js"
import { AgentReleases } from "./AgentReleases.js"
import { AgentRuntime } from "./AgentRuntime.js"
import { AgentSnapshots } from "./AgentSnapshots.js"
import { AgentTranscripts } from "./AgentTranscripts.js"
import { AiAgentDrafts } from "./AiAgentDrafts.js"
import { AiAgentEvals } from "./AiAgentEvals.js"
import { AiAgentGuardrails } from "./AiAgentGuardrails.js"
import { AiAgentKnowledge } from "./AiAgentKnowledge.js"
import { AiAgents } from "./AiAgents.js"
import { AiAgentTasks } from "./AiAgentTasks.js"
import { AiAgentTools } from "./AiAgentTools.js"
import { AiAgentToolTests } from "./AiAgentToolTests.js"
import { PublicAgentGate } from "./PublicAgentGate.js"
import { PublicAgents } from "./PublicAgents.js"
import { TaskDerivation } from "./TaskDerivation.js"

/** The draft's collections and the wizard's drafts, which an agent made `fromDraft` is built from. */
const Collections = Layer.mergeAll(AiAgentDrafts.Default, AiAgentTasks.Default, AiAgentTools.Default)

const Agents = AiAgents.Default.pipe(
  Layer.provide([AgentFromDraft.Default, TaskDerivation.Default]),
  Layer.provide(Collections)
)

/** Stateless runs of what an agent runs: the playground's transcripts and eval cases. */
const Transcripts = AgentTranscripts.Default.pipe(
  Layer.provide(AgentRuntime.Default),
  Layer.provide(AgentMemory.Default)
)

/** Eval cases and their runs, and the releases whose publish the suite may gate. */
const Evals = Layer.mergeAll(AiAgentEvals.Default, AgentReleases.Default).pipe(
  Layer.provide(AgentEvalRunner.Default),
  Layer.provide(Transcripts)
)

export const AiAgentsLive = Layer.mergeAll(
  AiAgentRepo.Default,
  Agents,
  Collections,
  AgentSnapshots.Default,
  AgentAudit.Default,
  AgentMemory.Default,
  PublicAgents.Default,
  PublicAgentGate.Default,
  AiAgentToolTests.Default,
  AiAgentGuardrails.Default,
  AiAgentKnowledge.Default,
  AgentConversations.Default,
  Transcripts,
  Evals
)
