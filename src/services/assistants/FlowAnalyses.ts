/**
 * The analysis of an Assistant's draft (`GET /flow/analysis`): the draft
 * read in one statement (graph and intents of one revision), analysed on
 * request (pure and fast: no cache to go stale), and joined with the NLU
 * report of those same intents (`NluReports`, computed in the background:
 * reading never waits for it), whose low-accuracy findings are added as
 * warnings.
 */
import { DateTime, Effect } from "effect"
import { analyzeFlow, isDeployable } from "../../domain/assistants/analysis/AnalyzeFlow.js"
import { ordered } from "../../domain/assistants/analysis/Findings.js"
import { nluFindings } from "../../domain/assistants/analysis/NluFindings.js"
import type { AssistantId } from "../../domain/assistants/Assistant.js"
import type { FlowAnalysis } from "../../domain/assistants/FlowAnalysis.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import { NluReports } from "../nlu/NluReports.js"
import { Assistants } from "./Assistants.js"

export class FlowAnalyses extends Effect.Service<FlowAnalyses>()("parley/services/FlowAnalyses", {
  effect: Effect.gen(function*() {
    const assistants = yield* Assistants
    const reports = yield* NluReports

    /** The analysis of the draft as it stands. */
    const analyse = Effect.fn("FlowAnalyses.analyse")(function*(workspaceId: WorkspaceId, agentId: AssistantId) {
      const { flow, intents } = yield* assistants.draftOf(workspaceId, agentId)
      const nlu = yield* reports.reportOf(workspaceId, agentId, intents, flow.revision)
      const findings = ordered([...analyzeFlow(flow, intents), ...nluFindings(nlu)])
      const errorCount = findings.filter((finding) => finding.severity === "error").length
      return {
        agentId,
        revision: flow.revision,
        analysedAt: yield* DateTime.now,
        deployable: isDeployable(findings),
        errorCount,
        warningCount: findings.length - errorCount,
        findings,
        nlu
      } satisfies FlowAnalysis
    })

    return { analyse } as const
  })
}) {}
