/**
 * A Parley node assembled: the HTTP app and its services over the database,
 * migrated before anything serves. `MainLive` listens on the configured port;
 * tests provide `ParleyLive` with a test server instead.
 */
import { HttpServer } from "@effect/platform"
import { Effect, Layer } from "effect"
import { PauseGuardLive } from "./actors/PauseGuard.js"
import { HttpAppLive, NodeServerLive } from "./http/Http.js"
import { MetricsExposition } from "./observability/MetricsExposition.js"
import { TracingLive } from "./observability/Tracing.js"
import { InstallationRepo } from "./persistence/InstallationRepo.js"
import { MigratorLive, SqlLive } from "./persistence/Sql.js"
import { MailerLive } from "./providers/MailerLive.js"
import { Admission } from "./services/Admission.js"
import { AiAgentsLive } from "./services/aiAgents/AiAgentsLive.js"
import { AssistantsLive } from "./services/assistants/AssistantsLive.js"
import { DeploymentsLive } from "./services/deployments/DeploymentsLive.js"
import { IdentityLive } from "./services/identity/IdentityLive.js"
import { ImportsLive } from "./services/imports/ImportsLive.js"
import { Readiness } from "./services/Readiness.js"
import { RuntimeLive } from "./services/runtime/RuntimeLive.js"
import { WorkflowsLive } from "./services/workflows/WorkflowsLive.js"
import { WorkspaceAdminLive } from "./services/workspace/WorkspaceAdminLive.js"
import { version } from "./Version.js"

const RecordStart = Layer.effectDiscard(
  Effect.flatMap(InstallationRepo, (repo) => repo.recordStart(version)).pipe(
    Effect.tap((installation) =>
      Effect.logInfo("Parley started").pipe(
        Effect.annotateLogs({ version, installationId: installation.id, starts: installation.starts })
      )
    )
  )
).pipe(Layer.provide(InstallationRepo.Default))

/** Everything a node runs, given an `HttpServer` and a `Mailer`. */
export const ParleyLive = Layer.mergeAll(HttpAppLive, RecordStart).pipe(
  Layer.provide(RuntimeLive),
  Layer.provide(DeploymentsLive),
  Layer.provide(ImportsLive),
  Layer.provide(AssistantsLive),
  Layer.provide(WorkflowsLive),
  Layer.provide(AiAgentsLive),
  Layer.provide(WorkspaceAdminLive),
  Layer.provide([Readiness.Default, MetricsExposition.Default, IdentityLive]),
  // One instance for the node: the HTTP gate, the turns gate and readiness share its counts.
  Layer.provide(Admission.Default),
  Layer.provide(MigratorLive),
  Layer.provideMerge(SqlLive),
  Layer.provide(TracingLive)
)

/**
 * A node listening on the configured host and port, in a process of its own:
 * one that stood still too long exits to be started afresh (`PauseGuardLive`).
 */
export const MainLive = PauseGuardLive.pipe(
  Layer.provideMerge(ParleyLive),
  HttpServer.withLogAddress,
  Layer.provide(NodeServerLive),
  Layer.provide(MailerLive)
)
