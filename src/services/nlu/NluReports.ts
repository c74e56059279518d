/**
 * The NLU report of each Assistant's intents (the `nlu` part of a flow
 * analysis): k-fold cross-validation of the built-in model
 * (`CrossValidation`), the one `NluModels` makes with the draft's model (in
 * its background training, one at a time), kept per Assistant and intents
 * digest, so reading it never waits.
 *
 * `reportFor` answers `ready` when the figures are for the intents as they
 * stand, `stale` (the previous figures) or `computing` (none yet) while a
 * measurement of changed intents runs, and `insufficient-data` at once when
 * there is too little to measure. A change of intents interrupts the
 * measurement of the old ones.
 *
 * `intentsRevision` is the draft revision at which this node first saw the
 * intents as they stand (the digest changes only when intents do, so it is
 * the revision of their last change whenever the node saw that change as it
 * happened; a node that started later reports the revision it first read).
 */
import { DateTime, Effect, FiberMap } from "effect"
import type { AssistantId } from "../../domain/assistants/Assistant.js"
import type { NluReport } from "../../domain/assistants/NluReport.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import { LruCache } from "../../domain/LruCache.js"
import { insufficientData } from "../../domain/nlu/CrossValidation.js"
import type { TrainingIntent } from "../../domain/nlu/IntentModel.js"
import { Revision } from "../../domain/Revision.js"
import { Assistants } from "../assistants/Assistants.js"
import { intentsKey } from "./IntentsKey.js"
import { draftOwner, NluModels } from "./NluModels.js"

type Measured = Extract<NluReport, { status: "ready" | "stale" }>

interface AgentState {
  readonly key: string
  readonly intentsRevision: Revision
  readonly startedAt: DateTime.Utc
  /** The report for `key` once known (ready or insufficient-data). */
  current: NluReport | undefined
  /** The last measurement of earlier intents, shown as `stale` meanwhile. */
  readonly previous: Measured | undefined
}

/** How many Assistants' reports a node keeps. */
const CAPACITY = 1000

export class NluReports extends Effect.Service<NluReports>()("parley/services/nlu/NluReports", {
  scoped: Effect.gen(function*() {
    const assistants = yield* Assistants
    const models = yield* NluModels
    const running = yield* FiberMap.make<string>()
    const states = new LruCache<AgentState>(CAPACITY)

    const measure = (state: AgentState, agentId: AssistantId, intents: ReadonlyArray<TrainingIntent>) =>
      Effect.gen(function*() {
        const { validation: result } = yield* models.trained(draftOwner(agentId), intents)
        // Checked before measuring: with too little data the model makes no cross-validation.
        if (result === undefined) return
        state.current = {
          status: "ready",
          intentsRevision: state.intentsRevision,
          computedAt: yield* DateTime.now,
          classifier: "builtin",
          folds: result.folds,
          accuracy: result.accuracy,
          macroF1: result.macroF1,
          intents: result.intents,
          confusions: result.confusions,
          threshold: result.threshold
        }
      }).pipe(Effect.withSpan("NluReports.measure", { attributes: { intents: intents.length } }))

    const shown = (state: AgentState): NluReport =>
      state.current ?? (state.previous === undefined
        ? { status: "computing", intentsRevision: state.intentsRevision, startedAt: state.startedAt }
        : { ...state.previous, status: "stale" })

    /**
     * The report for `intents`, the intents of the Assistant's draft at
     * `revision` as just read; starts their measurement when they changed.
     */
    const reportOf = Effect.fn("NluReports.reportOf")(function*(
      workspaceId: WorkspaceId,
      agentId: AssistantId,
      intents: ReadonlyArray<TrainingIntent>,
      revision: number
    ) {
      const agent = `${workspaceId}/${agentId}`
      const training = intents.map(({ name, utterances }) => ({ name, utterances }))
      const key = intentsKey(training)
      const known = states.get(agent)
      if (known !== undefined && known.key === key) return shown(known)
      const last = known?.current?.status === "ready" ? known.current : known?.previous
      const state: AgentState = {
        key,
        intentsRevision: Revision.make(revision),
        startedAt: yield* DateTime.now,
        current: undefined,
        previous: last?.status === "ready" || last?.status === "stale" ? last : undefined
      }
      states.set(agent, state)
      const lacking = insufficientData(training)
      if (lacking !== undefined) {
        state.current = { status: "insufficient-data", intentsRevision: state.intentsRevision, message: lacking }
        yield* FiberMap.remove(running, agent)
      } else {
        yield* FiberMap.run(running, agent, measure(state, agentId, training))
      }
      return shown(state)
    })

    /** The report of the Assistant's draft intents as they stand. */
    const reportFor = Effect.fn("NluReports.reportFor")(function*(workspaceId: WorkspaceId, agentId: AssistantId) {
      const { assistant, intents } = yield* assistants.draftOf(workspaceId, agentId)
      return yield* reportOf(workspaceId, agentId, intents, assistant.revision)
    })

    return { reportFor, reportOf } as const
  }),
  dependencies: [NluModels.Default]
}) {}
