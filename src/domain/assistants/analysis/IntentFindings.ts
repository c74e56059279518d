/**
 * What is wrong between the routers and the intents: a router listing an
 * intent that is not defined (`undefined-intent`, an error: the classifier
 * can never choose it, so its branch is dead), an intent no router lists
 * (`unused-intent`), one example taught to two intents (`shared-utterance`:
 * the classifier cannot tell them apart on it), and intents with too few
 * examples to be recognised reliably (`few-utterances`).
 */
import type { Finding } from "../FlowFinding.js"
import type { FlowNode } from "../FlowNode.js"
import { distinctUtterances, sameExample } from "../Utterances.js"
import type { AnalysisIntent } from "./AnalysisIntent.js"
import { error, listed, warning } from "./Findings.js"
import { nearestName } from "./IntentSimilarity.js"

/** Fewer distinct examples than this is a `few-utterances` warning. */
export const MIN_UTTERANCES = 3

type Router = Extract<FlowNode, { type: "intent-router" }>

/** The defined intents a router's undefined intent could be re-pointed to: those it does not list yet. */
export const repointCandidates = (router: Router, defined: ReadonlyArray<string>): ReadonlyArray<string> =>
  defined.filter((name) => !router.data.intents.includes(name))

/** Intent findings for the routers of the flow and the Assistant's intents. */
export const intentFindings = (
  nodes: ReadonlyArray<FlowNode>,
  intents: ReadonlyArray<AnalysisIntent>
): ReadonlyArray<Finding> => {
  const defined = [...new Set(intents.map((intent) => intent.name))]
  const definedSet = new Set(defined)
  const routers = nodes.filter((node): node is Router => node.type === "intent-router")
  const findings: Array<Finding> = []
  for (const router of routers) {
    for (const name of new Set(router.data.intents)) {
      if (definedSet.has(name)) continue
      const nearest = nearestName(name, repointCandidates(router, defined))
      findings.push(
        error(
          "undefined-intent",
          `Router ${router.id} routes the intent ${name}, which the Assistant does not define${
            nearest === undefined ? "" : ` (did you mean ${nearest}?)`
          }`,
          { nodeIds: [router.id], intents: [name], repairable: nearest !== undefined }
        )
      )
    }
  }
  const routed = new Set(routers.flatMap((router) => router.data.intents))
  for (const name of defined) {
    if (!routed.has(name)) {
      findings.push(warning("unused-intent", `No router routes the intent ${name}`, { intents: [name] }))
    }
  }
  const owners = new Map<string, { readonly utterance: string; readonly intents: Array<string> }>()
  for (const intent of intents) {
    for (const utterance of distinctUtterances(intent.utterances)) {
      const key = sameExample(utterance)
      const entry = owners.get(key)
      if (entry === undefined) owners.set(key, { utterance, intents: [intent.name] })
      else if (!entry.intents.includes(intent.name)) entry.intents.push(intent.name)
    }
  }
  for (const { intents: sharing, utterance } of owners.values()) {
    if (sharing.length < 2) continue
    findings.push(
      warning("shared-utterance", `The intents ${listed(sharing)} share the example "${utterance}"`, {
        intents: sharing,
        utterance
      })
    )
  }
  for (const intent of intents) {
    const count = distinctUtterances(intent.utterances).length
    if (count < MIN_UTTERANCES) {
      findings.push(
        warning(
          "few-utterances",
          `The intent ${intent.name} has ${count} distinct example${
            count === 1 ? "" : "s"
          }; at least ${MIN_UTTERANCES} help the classifier recognise it`,
          { intents: [intent.name] }
        )
      )
    }
  }
  return findings
}
