/**
 * What stops a draft from being deployed: the findings of the checks run on
 * its snapshot. Today that is the engine's own compile (a flow that cannot
 * run at all: no start, several starts, a start that leads nowhere), so a
 * deployment is never a snapshot the runtime would refuse.
 */
import { Either } from "effect"
import { programInputOf } from "../../domain/assistants/DeploymentSnapshot.js"
import type { Finding } from "../../domain/assistants/FlowFinding.js"
import type { ParleyDocument } from "../../domain/assistants/ParleyDocument.js"
import { compile } from "../../domain/runtime/engine/FlowProgram.js"

/** Every finding about a snapshot; those with severity `error` refuse the deployment. */
export const deploymentFindings = (snapshot: ParleyDocument): ReadonlyArray<Finding> =>
  Either.match(compile(programInputOf(snapshot)), { onLeft: (findings) => findings, onRight: () => [] })
