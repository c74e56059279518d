/**
 * Trying a workspace tool once with sample input (`POST
 * /v1/workspace-tools/{id}/test`), as an AI agent tool's test does: any
 * answer of the upstream is a result (`ok: false` for a status other than 2xx
 * or a body over `maxResponseBytes`), no answer at all is `UpstreamFailed`
 * (naming the cause: refused by the address rule, DNS, connection, too many
 * redirects) and a time-out is `Timeout`. The vault reads are on the tester's
 * behalf and for the tool. Nothing is stored.
 */
import { Effect } from "effect"
import { actorOf, type Principal } from "../../domain/identity/Principal.js"
import type { JsonValue } from "../../domain/Json.js"
import type { WorkspaceToolId } from "../../domain/workspace/Ids.js"
import type { WorkspaceToolTestResult } from "../../domain/workspace/ToolCallResult.js"
import { ToolCalls } from "./ToolCalls.js"
import { testCall } from "./ToolTestCall.js"
import { definitionOf, toolRef, WorkspaceTools } from "./WorkspaceTools.js"

export class WorkspaceToolTests extends Effect.Service<WorkspaceToolTests>()(
  "parley/services/workspace/WorkspaceToolTests",
  {
    effect: Effect.gen(function*() {
      const tools = yield* WorkspaceTools
      const calls = yield* ToolCalls

      const test = Effect.fn("WorkspaceTools.test")(function*(
        principal: Principal,
        id: WorkspaceToolId,
        input: Readonly<Record<string, JsonValue>>
      ) {
        const tool = yield* tools.get(principal, id)
        const caller = { workspaceId: principal.workspaceId, usedBy: toolRef(tool), actor: actorOf(principal) }
        const answer = yield* testCall(calls, caller, tool.name, definitionOf(tool), input)
        return { toolId: tool.id, name: tool.name, ...answer } satisfies WorkspaceToolTestResult
      })

      return { test } as const
    })
  }
) {}
