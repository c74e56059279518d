/**
 * Scripted Assistants, assembled: the repositories and the services the
 * routes (and the runtime) call. It needs the database only; the audit log
 * is the same layer identity uses, so one instance serves both.
 */
import { Layer } from "effect"
import { AssistantRepo } from "../../persistence/assistants/AssistantRepo.js"
import { DraftRepo } from "../../persistence/assistants/DraftRepo.js"
import { FlowRepo } from "../../persistence/assistants/FlowRepo.js"
import { IntentRepo } from "../../persistence/assistants/IntentRepo.js"
import { AuditLog } from "../AuditLog.js"
import { NluReports } from "../nlu/NluReports.js"
import { Assistants } from "./Assistants.js"
import { FlowAnalyses } from "./FlowAnalyses.js"
import { FlowEdits } from "./FlowEdits.js"
import { Flows } from "./Flows.js"
import { Intents } from "./Intents.js"

const Repositories = Layer.mergeAll(AssistantRepo.Default, IntentRepo.Default, FlowRepo.Default, DraftRepo.Default)

export const AssistantsLive = Layer.mergeAll(
  Intents.Default,
  Flows.Default,
  FlowEdits.Default,
  FlowAnalyses.Default
).pipe(
  Layer.provideMerge(NluReports.Default),
  Layer.provideMerge(Assistants.Default),
  Layer.provideMerge(Layer.mergeAll(Repositories, AuditLog.Default))
)
