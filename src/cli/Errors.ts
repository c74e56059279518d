/**
 * `parley errors list [--workspace <id>] [--limit <n>]`: the errors UIs
 * reported (`POST /v1/support/error-report`), most recently seen first, one
 * JSON line each with its fingerprint, occurrences, first and last sighting,
 * the trace id of the last one, its route and status. Reads the database
 * directly, so it works beside a running cluster (the embedded database
 * admits one process at a time: stop the node, or use `DATABASE_URL`).
 */
import { Command, Options } from "@effect/cli"
import { Console, Effect, Layer, Option, Schema } from "effect"
import { WorkspaceId } from "../domain/identity/Ids.js"
import { LoggingLive } from "../observability/Logging.js"
import { MigratorLive, SqlLive } from "../persistence/Sql.js"
import { ErrorReportRepo, ErrorSummary } from "../persistence/workspace/ErrorReportRepo.js"
import { reportStartupFailure } from "./Startup.js"

const workspace = Options.text("workspace").pipe(
  Options.withSchema(WorkspaceId),
  Options.optional,
  Options.withDescription("Only this workspace's errors (its id)")
)

const limit = Options.integer("limit").pipe(
  Options.withSchema(Schema.Number.pipe(Schema.int(), Schema.between(1, 10_000))),
  Options.withDefault(50),
  Options.withDescription("How many errors to list (1 to 10000)")
)

const encode = Schema.encodeSync(ErrorSummary)

const list = Command.make(
  "list",
  { workspace, limit },
  ({ limit, workspace }) =>
    Effect.flatMap(ErrorReportRepo, (repo) => repo.recent(Option.getOrNull(workspace), limit)).pipe(
      Effect.flatMap((errors) =>
        Effect.forEach(errors, (error) => {
          const { reportedBy, ...row } = encode(error)
          return Console.log(JSON.stringify({ ...row, reportedBy: JSON.parse(reportedBy) }))
        }, { discard: true })
      ),
      Effect.provide(ErrorReportRepo.Default.pipe(Layer.provide(MigratorLive), Layer.provideMerge(SqlLive))),
      reportStartupFailure,
      Effect.provide(LoggingLive)
    )
).pipe(
  Command.withDescription("List the errors UIs reported, most recently seen first, one JSON object per line")
)

/** `parley errors …` */
export const errors = Command.make("errors").pipe(
  Command.withDescription("Operator commands on the errors UIs reported"),
  Command.withSubcommands([list])
)
