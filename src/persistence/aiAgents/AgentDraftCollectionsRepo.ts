/**
 * Reads of an agent's draft collections whole, in the order the agent uses
 * them (tasks by position, tools by name): what a snapshot freezes and what
 * the playground runs. Writes belong to each collection's own repository.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { AiAgentId, type AiAgentKnowledgeId } from "../../domain/aiAgents/Ids.js"
import { AiAgentTask } from "../../domain/aiAgents/Task.js"
import { AiAgentTool } from "../../domain/aiAgents/Tool.js"

const ByAgent = Schema.Struct({ agentId: AiAgentId })

/** A tool row with its config as JSON text, decoded into the domain's tool. */
const ToolRow = Schema.transform(
  Schema.Struct({ config: Schema.String }, { key: Schema.String, value: Schema.Unknown }),
  AiAgentTool,
  {
    strict: false,
    decode: (row) => ({ ...row, config: JSON.parse(row.config) as unknown }),
    encode: (tool) => tool
  }
)

export class AgentDraftCollectionsRepo extends Effect.Service<AgentDraftCollectionsRepo>()(
  "parley/persistence/AgentDraftCollectionsRepo",
  {
    effect: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const tasks = SqlSchema.findAll({
        Request: ByAgent,
        Result: AiAgentTask,
        execute: ({ agentId }) =>
          sql`SELECT id, workspace_id, agent_id, title, goal, success_criteria, position, required_tool_ids, status,
                     created_at, updated_at
              FROM ai_agent_tasks WHERE agent_id = ${agentId} ORDER BY position, id`
      })
      // The config is read as text: the client would rename snake_case keys inside it (an input property
      // `order_id`, a header), and the model would be offered a schema its tool's templates do not name.
      const tools = SqlSchema.findAll({
        Request: ByAgent,
        Result: ToolRow,
        execute: ({ agentId }) =>
          sql`SELECT id, workspace_id, agent_id, name, description, config::text AS config, enabled, created_at,
                     updated_at
              FROM ai_agent_tools WHERE agent_id = ${agentId} ORDER BY name, id`
      })

      return {
        /** Every task of the agent's draft, in position order (disabled ones too). */
        tasks: (agentId: AiAgentId) =>
          tasks({ agentId }).pipe(Effect.orDie, Effect.withSpan("AgentDraftCollectionsRepo.tasks")),
        /** Every tool of the agent's draft, by name (disabled ones too). */
        tools: (agentId: AiAgentId) =>
          tools({ agentId }).pipe(Effect.orDie, Effect.withSpan("AgentDraftCollectionsRepo.tools")),
        /** The ids of every knowledge document of the agent's draft, oldest first (disabled ones too). */
        knowledgeIds: (agentId: AiAgentId) =>
          sql<{ id: AiAgentKnowledgeId }>`SELECT id FROM ai_agent_knowledge WHERE agent_id = ${agentId}
              ORDER BY created_at, id`.pipe(
            Effect.map((rows) => rows.map((row) => row.id)),
            Effect.orDie,
            Effect.withSpan("AgentDraftCollectionsRepo.knowledgeIds")
          )
      } as const
    })
  }
) {}
