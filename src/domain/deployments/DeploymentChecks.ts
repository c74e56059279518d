/**
 * What stops a draft from being deployed: the flow analysis of its snapshot
 * (`analyzeFlow`, DESIGN §6: every error blocks, warnings do not), and, as a
 * last guard, the engine's own compile, so a deployment is never a snapshot
 * the runtime would refuse to run.
 */
import { Either } from "effect"
import { analyzeFlow } from "../assistants/analysis/AnalyzeFlow.js"
import type { Finding } from "../assistants/FlowFinding.js"
import type { ParleyDocument } from "../assistants/ParleyDocument.js"
import { compile } from "../runtime/engine/FlowProgram.js"
import { programInputOf } from "../runtime/engine/ProgramInputs.js"

const sameFinding = (a: Finding, b: Finding) => a.code === b.code && a.message === b.message

/** Every finding about a snapshot; those with severity `error` refuse the deployment. */
export const deploymentFindings = (snapshot: ParleyDocument): ReadonlyArray<Finding> => {
  const analysed = analyzeFlow(snapshot.flow, snapshot.intents)
  const unrunnable = Either.match(compile(programInputOf(snapshot)), { onLeft: (found) => found, onRight: () => [] })
  return [...analysed, ...unrunnable.filter((finding) => !analysed.some((known) => sameFinding(known, finding)))]
}
