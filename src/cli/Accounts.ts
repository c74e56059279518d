/**
 * The operator's account commands: `parley users disable|enable|reset-mfa
 * <email>` and `parley sessions revoke <email> | --all`. They act on the database directly
 * and reach running nodes through its change announcements, so they work on
 * a live cluster. (The embedded database admits one process at a time: stop
 * the node first, or run them against `DATABASE_URL`.)
 */
import { Args, Command, Options } from "@effect/cli"
import { Console, Effect, Layer, Option } from "effect"
import { LoggingLive } from "../observability/Logging.js"
import { ApiTokenRepo } from "../persistence/identity/ApiTokenRepo.js"
import { OneTimeTokenRepo } from "../persistence/identity/OneTimeTokenRepo.js"
import { RecoveryCodeRepo } from "../persistence/identity/RecoveryCodeRepo.js"
import { SessionRepo } from "../persistence/identity/SessionRepo.js"
import { UserRepo } from "../persistence/identity/UserRepo.js"
import { WorkspaceRepo } from "../persistence/identity/WorkspaceRepo.js"
import { MigratorLive, SqlLive } from "../persistence/Sql.js"
import { MailerLive } from "../providers/MailerLive.js"
import { AuditLog } from "../services/AuditLog.js"
import { AccountAdmin } from "../services/identity/AccountAdmin.js"
import { AccountAudit } from "../services/identity/AccountAudit.js"
import { reportStartupFailure } from "./Startup.js"

/** The operator's service and what it needs but the database and the mailer (no keys, no change listener). */
export const AccountAdminServices = AccountAdmin.Default.pipe(
  Layer.provide(AccountAudit.Default),
  Layer.provide(Layer.mergeAll(
    UserRepo.Default,
    SessionRepo.Default,
    OneTimeTokenRepo.Default,
    RecoveryCodeRepo.Default,
    ApiTokenRepo.Default,
    WorkspaceRepo.Default,
    AuditLog.Default
  ))
)

const AccountAdminLive = AccountAdminServices.pipe(
  Layer.provide(MailerLive),
  Layer.provide(MigratorLive),
  Layer.provide(SqlLive)
)

const run = <A, E extends { readonly _tag?: string; readonly message?: string }>(
  effect: Effect.Effect<A, E, AccountAdmin>
) =>
  effect.pipe(
    Effect.flatMap((result) => Console.log(JSON.stringify(result, null, 2))),
    Effect.provide(AccountAdminLive),
    reportStartupFailure,
    Effect.provide(LoggingLive)
  )

const email = Args.text({ name: "email" }).pipe(Args.withDescription("The account's email address"))

const disable = Command.make(
  "disable",
  { email },
  ({ email }) => run(Effect.flatMap(AccountAdmin, (admin) => admin.disable(email)))
).pipe(
  Command.withDescription(
    "Disable an account: it cannot sign in, its sessions end at once on every node, its mailed links stop " +
      "working and the API tokens it created are revoked"
  )
)

const enable = Command.make(
  "enable",
  { email },
  ({ email }) => run(Effect.flatMap(AccountAdmin, (admin) => admin.enable(email)))
).pipe(
  Command.withDescription("Let a disabled account sign in again")
)

const resetMfa = Command.make(
  "reset-mfa",
  { email },
  ({ email }) => run(Effect.flatMap(AccountAdmin, (admin) => admin.resetMfa(email)))
).pipe(
  Command.withDescription(
    "Turn MFA off for a user who lost their authenticator and recovery codes, after checking who they are " +
      "out of band: their sessions end and they are told by mail"
  )
)

/** `parley users …` */
export const users = Command.make("users").pipe(
  Command.withDescription("Operator commands on accounts"),
  Command.withSubcommands([disable, enable, resetMfa])
)

const revoke = Command.make(
  "revoke",
  {
    email: Args.text({ name: "email" }).pipe(
      Args.withDescription("Sign this account out of every session"),
      Args.optional
    ),
    all: Options.boolean("all").pipe(Options.withDescription("Sign every account out of every session"))
  },
  ({ all, email }) =>
    all === Option.isSome(email)
      ? reportStartupFailure(Effect.fail({ message: "Give either an email address or --all" }))
      : run(Effect.flatMap(AccountAdmin, (admin) =>
        Effect.map(
          Option.isSome(email) ? admin.signOutUser(email.value) : admin.signOutEveryone(),
          (revoked) => ({ revoked })
        )))
).pipe(Command.withDescription("End sessions at once, on every node: one account's (email) or everyone's (--all)"))

/** `parley sessions …` */
export const sessions = Command.make("sessions").pipe(
  Command.withDescription("Operator commands on signed-in sessions"),
  Command.withSubcommands([revoke])
)
