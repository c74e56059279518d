import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { WorkspaceToolId } from "../../domain/workspace/Ids.js"
import type { ResourceRef } from "../../domain/workspace/ResourceRef.js"

/**
 * Who uses a workspace tool, for the delete's in-use check: the scripted
 * Assistants whose flow (draft nodes or subflows) or live deployment has an
 * `http` node with the tool's id, and the AI agents whose draft or live
 * version has a `workspace` tool naming it. Workflows (`http` nodes)
 * reference tools too: their area adds its query to `usersOf` when it stores
 * those references.
 */
export class WorkspaceToolUsersRepo extends Effect.Service<WorkspaceToolUsersRepo>()(
  "parley/persistence/WorkspaceToolUsersRepo",
  {
    effect: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const usesTool = `lax $.** ? (@.type == "http" && @.data.toolId == $id)`

      const assistants = (workspaceId: WorkspaceId, toolId: WorkspaceToolId) =>
        sql<{ id: string; name: string }>`SELECT a.id::text AS id, a.name FROM assistants a
          WHERE a.workspace_id = ${workspaceId} AND (
            EXISTS (SELECT 1 FROM assistant_flows f WHERE f.agent_id = a.id
              AND jsonb_path_exists(jsonb_build_array(f.nodes, f.subflows), ${usesTool}::jsonpath,
                jsonb_build_object('id', ${toolId}::text)))
            OR EXISTS (SELECT 1 FROM deployments d WHERE d.agent_id = a.id AND d.status = 'live'
              AND jsonb_path_exists(d.snapshot, ${usesTool}::jsonpath, jsonb_build_object('id', ${toolId}::text))))
          ORDER BY a.name, a.id`

      const usesAgentTool = `lax $.tools[*] ? (@.config.kind == "workspace" && @.config.workspaceToolId == $id)`
      const aiAgents = (workspaceId: WorkspaceId, toolId: WorkspaceToolId) =>
        sql<{ slug: string; name: string }>`SELECT a.slug, a.name FROM ai_agents a
          WHERE a.workspace_id = ${workspaceId} AND (
            EXISTS (SELECT 1 FROM ai_agent_tools t WHERE t.agent_id = a.id AND t.config->>'kind' = 'workspace'
              AND t.config->>'workspaceToolId' = ${toolId}::text)
            OR EXISTS (SELECT 1 FROM ai_agent_versions v WHERE v.agent_id = a.id AND v.number = a.live_version
              AND jsonb_path_exists(v.snapshot, ${usesAgentTool}::jsonpath, jsonb_build_object('id', ${toolId}::text))))
          ORDER BY a.name, a.slug`

      return {
        /** The resources that reference the tool, in a stable order (empty when none). */
        usersOf: (workspaceId: WorkspaceId, toolId: WorkspaceToolId) =>
          Effect.all([assistants(workspaceId, toolId), aiAgents(workspaceId, toolId)]).pipe(
            Effect.map(([assistantRows, agentRows]): ReadonlyArray<ResourceRef> => [
              ...assistantRows.map((row) => ({ kind: "assistant" as const, id: row.id, name: row.name })),
              ...agentRows.map((row) => ({ kind: "ai-agent" as const, id: row.slug, name: row.name }))
            ]),
            Effect.orDie,
            Effect.withSpan("WorkspaceToolUsersRepo.usersOf")
          )
      }
    })
  }
) {}
