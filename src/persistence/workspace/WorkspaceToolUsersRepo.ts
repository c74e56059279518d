import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { WorkspaceToolId } from "../../domain/workspace/Ids.js"
import type { ResourceRef } from "../../domain/workspace/ResourceRef.js"

/**
 * Who uses a workspace tool, for the delete's in-use check: today the scripted
 * Assistants whose flow (draft nodes or subflows) or live deployment has an
 * `http` node with the tool's id. AI agents (a `workspace` tool config) and
 * workflows (`http` nodes) reference tools too: their areas add their query
 * to `usersOf` when they store those references.
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

      return {
        /** The resources that reference the tool, in a stable order (empty when none). */
        usersOf: (workspaceId: WorkspaceId, toolId: WorkspaceToolId) =>
          assistants(workspaceId, toolId).pipe(
            Effect.map((rows): ReadonlyArray<ResourceRef> =>
              rows.map((row) => ({ kind: "assistant", id: row.id, name: row.name }))
            ),
            Effect.orDie,
            Effect.withSpan("WorkspaceToolUsersRepo.usersOf")
          )
      }
    })
  }
) {}
