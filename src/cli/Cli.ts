import { Command } from "@effect/cli"
import { version } from "../Version.js"
import { sessions, users } from "./Accounts.js"
import { errors } from "./Errors.js"
import { info } from "./Info.js"
import { migrate } from "./Migrate.js"
import { printOpenApi } from "./PrintOpenApi.js"
import { secrets } from "./Secrets.js"
import { serve } from "./Serve.js"

/** The `parley` command and its subcommands. */
export const parley = Command.make("parley").pipe(
  Command.withDescription("Parley: an open back end for conversational software"),
  Command.withSubcommands([serve, migrate, printOpenApi, info, users, sessions, secrets, errors])
)

export const cli = Command.run(parley, { name: "parley", version })
