/**
 * How an Assistant's deployed conversations went over the last N UTC days.
 * The report covers the public sessions (on deployments; editors' test
 * sessions never count) that started in the window, and every figure is about
 * those sessions: the daily series files each session, with its turns and
 * fallbacks, under the day it started, so the days add up to the totals.
 */
import { Clock, Effect, Option } from "effect"
import type { AssistantId } from "../../domain/assistants/Assistant.js"
import { FlowNodeId } from "../../domain/assistants/FlowIds.js"
import { fillDays, rate, windowOf } from "../../domain/deployments/AnalyticsReport.js"
import type { AssistantAnalytics as Report } from "../../domain/deployments/AssistantAnalytics.js"
import { type DeploymentId, DeploymentNotFound } from "../../domain/deployments/Deployment.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import { AnalyticsRepo } from "../../persistence/deployments/AnalyticsRepo.js"
import { DeploymentRepo } from "../../persistence/deployments/DeploymentRepo.js"
import { Assistants } from "../assistants/Assistants.js"

export class AssistantAnalytics extends Effect.Service<AssistantAnalytics>()(
  "parley/services/deployments/AssistantAnalytics",
  {
    effect: Effect.gen(function*() {
      const repo = yield* AnalyticsRepo
      const deployments = yield* DeploymentRepo
      const assistants = yield* Assistants

      const report = Effect.fn("AssistantAnalytics.report")(function*(
        workspaceId: WorkspaceId,
        agentId: AssistantId,
        params: { readonly days: number; readonly deploymentId?: DeploymentId | undefined }
      ) {
        yield* assistants.get(workspaceId, agentId)
        if (params.deploymentId !== undefined) {
          const deployment = yield* deployments.findById(workspaceId, params.deploymentId)
          if (Option.isNone(deployment) || deployment.value.agentId !== agentId) {
            return yield* new DeploymentNotFound({
              deploymentId: params.deploymentId,
              message: `No deployment ${params.deploymentId} of this Assistant in this workspace`
            })
          }
        }
        const window = windowOf(yield* Clock.currentTimeMillis, params.days)
        const scope = { workspaceId, agentId, deploymentId: params.deploymentId, start: window.start }
        const [daily, outcomes, dropOffs, intents] = yield* Effect.all(
          [repo.daily(scope), repo.outcomes(scope), repo.dropOffs(scope), repo.intents(scope)],
          { concurrency: "unbounded" }
        )
        const total = (pick: (day: (typeof daily)[number]) => number) => daily.reduce((sum, day) => sum + pick(day), 0)
        const sessions = total((day) => day.sessions)
        const turns = total((day) => day.turns)
        return {
          agentId,
          days: params.days,
          from: window.from,
          to: window.to,
          sessions,
          turns,
          completionRate: rate(total((day) => day.completed), sessions),
          handoffRate: rate(total((day) => day.handedOff), sessions),
          fallbackRate: rate(total((day) => day.fallbacks), turns),
          outcomes: outcomes.map(({ count, label }) => ({ outcome: label, count })),
          topIntents: intents.map(({ count, label }) => ({ intent: label, count })),
          dropOffNodes: dropOffs.map(({ count, label }) => ({ nodeId: FlowNodeId.make(label), count })),
          daily: fillDays(window.from, params.days, daily)
        } satisfies Report
      })

      return { report } as const
    }),
    dependencies: [AnalyticsRepo.Default]
  }
) {}
