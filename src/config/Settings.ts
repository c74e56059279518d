/**
 * Every setting Parley reads, in one place, each with its default and a
 * description. Layers read the ones they need; the README's configuration
 * table lists exactly these (a test holds the two together).
 */
import { Config, ConfigError, Duration, Either, LogLevel, Option, ParseResult, Redacted, Schema } from "effect"
import { Email } from "../domain/identity/Email.js"
import { parseAllowList } from "../domain/outbound/OutboundAllowList.js"
import { connectionProblems, LlmConnection, LlmProvider } from "../domain/settings/LlmConnection.js"
import { AiPriceTable, defaultAiPrices } from "../domain/workspace/AiPrices.js"
import { communityPlan, ConfiguredPlan } from "../domain/workspace/BillingPlan.js"

/**
 * A text setting, absent when unset **or blank**. Orchestrators write `NAME=`
 * for a variable they have no value for (compose's `${NAME:-}`, an empty key
 * of a Secret), and taking "" as a value turned "not configured" into a broken
 * configuration: an empty DATABASE_URL was a URL with no user, retried for a
 * minute. Typed settings (numbers, durations, switches, PARLEY_ENV) are not
 * read this way: a blank one is refused at start, by name, as any malformed
 * value is (a blank PARLEY_ENV must not quietly mean development).
 */
const optionalText = (name: string) =>
  Config.option(Config.string(name)).pipe(Config.map(Option.filter((value) => value.trim() !== "")))

/** A text setting with a default, which a blank value gets too. */
const textOr = (name: string, fallback: string) => Config.map(optionalText(name), Option.getOrElse(() => fallback))

/** A secret text setting, absent when unset or blank. */
const optionalSecret = (name: string) => Config.map(optionalText(name), Option.map((value) => Redacted.make(value)))

/** `development` (the default) or `production` (secrets become mandatory). */
export const Environment = Config.literal("development", "production")("PARLEY_ENV").pipe(
  Config.withDefault("development" as const),
  Config.withDescription("development | production; production requires its secrets at start-up")
)

/** The HTTP port. */
export const Port = Config.port("PORT").pipe(Config.withDefault(8080), Config.withDescription("HTTP port"))

/** The interface the HTTP server binds. */
export const Host = textOr("PARLEY_HOST", "0.0.0.0").pipe(
  Config.withDescription("HTTP bind address")
)

/** A PostgreSQL URL; without it Parley runs on its embedded PostgreSQL. */
export const DatabaseUrl = optionalSecret("DATABASE_URL").pipe(
  Config.withDescription("PostgreSQL connection URL; unset or blank means the embedded database in PARLEY_DATA_DIR")
)

/** Where the embedded default keeps its files. */
export const DataDir = textOr("PARLEY_DATA_DIR", "./.parley").pipe(
  Config.withDescription("Directory of the embedded database and its lock file")
)

/** The most connections the server pool opens. */
export const DatabasePoolMax = Config.integer("PARLEY_DB_POOL_MAX").pipe(
  Config.withDefault(10),
  Config.withDescription("Maximum PostgreSQL connections per node")
)

/** The bearer token that `/metrics` requires; mandatory in production. */
export const MetricsToken = optionalSecret("METRICS_TOKEN").pipe(
  Config.withDescription("Bearer token for /metrics (required in production; optional otherwise)")
)

/** The key that encrypts secrets at rest; mandatory in production. */
export const MasterKey = optionalSecret("PARLEY_MASTER_KEY").pipe(
  Config.withDescription(
    "Master key for secrets at rest, 32+ bytes as base64 (required in production; otherwise generated into PARLEY_DATA_DIR)"
  )
)

/**
 * Master keys still accepted for reading while secrets move to a new
 * `PARLEY_MASTER_KEY` (`parley secrets rotate-master-key`); nothing is
 * written under them.
 */
export const MasterKeyPrevious = optionalSecret("PARLEY_MASTER_KEY_PREVIOUS").pipe(
  Config.withDescription(
    "Previous master keys, comma-separated base64, still accepted for reading during a master-key rotation " +
      "(new values are written under PARLEY_MASTER_KEY; see docs/SECRETS.md)"
  )
)

/** Where users reach this deployment: links in mails and embed snippets are built from it. */
export const PublicUrl = Config.all([optionalText("PARLEY_PUBLIC_URL"), Port]).pipe(
  // Unset, it follows the port: a node started on another port mails links and hands out snippets that reach it.
  Config.map(([given, port]) => Option.getOrElse(given, () => `http://localhost:${port}`)),
  Config.withDescription(
    "The URL users reach Parley at (mail links, embed snippets; the token issuer when set); default " +
      "http://localhost:<PORT>; required in production"
  )
)

/**
 * Where the links Parley mails point (`…/verify-email`, `…/reset-password`,
 * `…/accept-invitation`, each with `?token=`): Parley's own pages at the
 * public URL unless a front end with pages of its own takes them.
 */
export const MailLinkUrl = Config.all([optionalText("PARLEY_MAIL_LINK_URL"), PublicUrl]).pipe(
  Config.map(([given, publicUrl]) => Option.getOrElse(given, () => publicUrl)),
  Config.withDescription(
    "Base URL of mailed links (/verify-email, /reset-password, /accept-invitation with ?token=); default " +
      "PARLEY_PUBLIC_URL, where Parley serves those pages"
  )
)

/** `PARLEY_PUBLIC_URL` if it is given: production requires it, as its default names localhost. */
export const GivenPublicUrl = optionalText("PARLEY_PUBLIC_URL")

/** The access tokens' issuer when `PARLEY_PUBLIC_URL` is not given. */
export const DEFAULT_TOKEN_ISSUER = "parley"

/**
 * The access tokens' issuer: `PARLEY_PUBLIC_URL`, or `DEFAULT_TOKEN_ISSUER`
 * when it is not given. Never the port-following default of `PublicUrl`: every
 * node of a cluster must issue and accept the same, whatever its port.
 */
export const TokenIssuer = Config.map(GivenPublicUrl, Option.getOrElse(() => DEFAULT_TOKEN_ISSUER))

/** How many reverse proxies stand in front of the nodes; their `X-Forwarded-For` entries are trusted. */
export const TrustedProxyHops = Config.integer("PARLEY_TRUSTED_PROXY_HOPS").pipe(
  Config.withDefault(0),
  Config.withDescription("Number of trusted proxies in front (0: use the socket address, ignore X-Forwarded-For)")
)

/** The Ed25519 private key (PKCS#8 PEM) that signs access tokens; mandatory in production. */
export const JwtPrivateKey = optionalSecret("PARLEY_JWT_PRIVATE_KEY").pipe(
  Config.withDescription(
    "Ed25519 PKCS#8 PEM for access tokens (required in production; otherwise generated and kept in the database)"
  )
)

/** An SMTP server for outgoing mail, as a URL; without it (development) mail is logged, not sent. */
export const SmtpUrl = optionalSecret("PARLEY_SMTP_URL").pipe(
  Config.withDescription("smtp:// or smtps:// URL with credentials (required in production; otherwise mail is logged)")
)

/** The sender of Parley's mail. */
export const MailFrom = textOr("PARLEY_MAIL_FROM", "Parley <no-reply@localhost>").pipe(
  Config.withDescription("The From address of Parley's mail")
)

/** The largest JSON body most routes accept. */
export const MaxBodyBytes = Config.integer("PARLEY_MAX_BODY_BYTES").pipe(
  Config.withDefault(1024 * 1024),
  Config.withDescription("Largest request body in bytes (imports and uploads excepted)")
)

/** The largest body of imports and knowledge or dataset uploads. */
export const MaxUploadBytes = Config.integer("PARLEY_MAX_UPLOAD_BYTES").pipe(
  Config.withDefault(10 * 1024 * 1024),
  Config.withDescription("Largest body of imports and uploads in bytes")
)

/** How long a handler may run before the request answers 504. */
export const RequestTimeout = Config.duration("PARLEY_REQUEST_TIMEOUT").pipe(
  Config.withDefault(Duration.seconds(30)),
  Config.withDescription("Handler time-out, e.g. '30 seconds'")
)

const logLevels: Record<string, LogLevel.LogLevel> = {
  trace: LogLevel.Trace,
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warning: LogLevel.Warning,
  warn: LogLevel.Warning,
  error: LogLevel.Error
}

/** The least severe log level written: `Trace`, `Debug`, `Info`, `Warning` (or `Warn`) or `Error`, any case. */
export const LogLevelSetting = Config.string("PARLEY_LOG_LEVEL").pipe(
  Config.mapOrFail((value) => {
    const level = logLevels[value.trim().toLowerCase()]
    return level === undefined
      ? Either.left(ConfigError.InvalidData([], `Expected Trace, Debug, Info, Warning or Error, not "${value}"`))
      : Either.right(level)
  }),
  Config.withDefault(LogLevel.Info),
  Config.withDescription("Trace | Debug | Info | Warning | Error")
)

/**
 * How long sign-ins last: the absolute lifetime of a session however it is
 * used, and how long it survives without a refresh. Defaults: 30 days and 7
 * days; a deployment bound to NIST SP 800-63B AAL2 sets, for instance, `12
 * hours` and `30 minutes`. The idle time-out must be between 15 minutes (an
 * access token's life) and the lifetime.
 */
export const SessionLifetimes = Config.all({
  maxAge: Config.duration("PARLEY_SESSION_MAX_AGE").pipe(
    Config.withDefault(Duration.days(30)),
    Config.withDescription("Absolute lifetime of a sign-in, e.g. '30 days' or '12 hours'")
  ),
  idleTimeout: Config.duration("PARLEY_SESSION_IDLE_TIMEOUT").pipe(
    Config.withDefault(Duration.days(7)),
    Config.withDescription("How long a sign-in survives unused, e.g. '7 days' or '30 minutes'")
  )
}).pipe(
  Config.validate({
    message: "PARLEY_SESSION_IDLE_TIMEOUT must be at least 15 minutes and at most PARLEY_SESSION_MAX_AGE",
    validation: ({ idleTimeout, maxAge }) =>
      Duration.greaterThanOrEqualTo(idleTimeout, Duration.minutes(15)) &&
      Duration.lessThanOrEqualTo(idleTimeout, maxAge)
  })
)

/**
 * Whether every user must have MFA on before acting in a workspace (ASVS 6.3.3
 * at level 2): until they enrol, a signed-in user may use only their own
 * account's routes. Default: on in production, off in development.
 */
export const RequireMfa = Config.all({
  explicit: Config.option(Config.boolean("PARLEY_REQUIRE_MFA")),
  environment: Environment
}).pipe(
  Config.map(({ environment, explicit }) => Option.getOrElse(explicit, () => environment === "production")),
  Config.withDescription("Require MFA of every user (default: true in production, false in development)")
)

/** An OTLP/HTTP collector to export traces to. */
export const OtlpEndpoint = optionalText("OTEL_EXPORTER_OTLP_ENDPOINT").pipe(
  Config.withDescription("OTLP/HTTP endpoint for traces, e.g. http://collector:4318")
)

/**
 * This node's cluster runner: the address other nodes reach it at (kept apart
 * from the HTTP `PORT`) and the address it listens on (the advertised one
 * unless set). The runner protocol has no authentication of its own: keep the
 * port on a private network.
 */
export const RunnerAddressSettings = Config.all({
  host: textOr("PARLEY_RUNNER_HOST", "127.0.0.1").pipe(
    Config.withDescription("The host other nodes reach this node's cluster runner at")
  ),
  port: Config.port("PARLEY_RUNNER_PORT").pipe(
    Config.withDefault(34431),
    Config.withDescription("The cluster runner's port (not the HTTP PORT)")
  ),
  listenHost: optionalText("PARLEY_RUNNER_LISTEN_HOST").pipe(
    Config.withDescription(
      "The address the runner listens on (default: PARLEY_RUNNER_HOST), e.g. 0.0.0.0 in a container"
    )
  )
})

/**
 * How fast the cluster notices a dead node and moves its shards, against how
 * much it tolerates a slow one (see docs/CLUSTER.md for the trade-off and the
 * measurements behind the defaults).
 */
export const ShardTiming = Config.all({
  lockExpiration: Config.duration("PARLEY_SHARD_LOCK_EXPIRATION").pipe(
    Config.withDefault(Duration.seconds(3)),
    Config.withDescription(
      "A node that has not renewed its runner heartbeat for this long loses its shards (a dead one, whose runner port " +
        "refuses connections, at once)"
    )
  ),
  lockRefreshInterval: Config.duration("PARLEY_SHARD_LOCK_REFRESH_INTERVAL").pipe(
    Config.withDefault(Duration.seconds(1)),
    Config.withDescription("How often a node renews its heartbeat and shard locks (at most a third of the expiration)")
  ),
  refreshAssignmentsInterval: Config.duration("PARLEY_SHARD_REFRESH_INTERVAL").pipe(
    Config.withDefault(Duration.millis(500)),
    Config.withDescription("How often a node re-reads the live nodes and takes the shards that fall to it")
  ),
  runnerHealthCheckInterval: Config.duration("PARLEY_RUNNER_HEALTH_CHECK_INTERVAL").pipe(
    Config.withDefault(Duration.seconds(1)),
    Config.withDescription("How often a node pings the others and reports the unreachable ones")
  ),
  shardsPerGroup: Config.integer("PARLEY_SHARDS").pipe(
    Config.withDefault(300),
    Config.validate({
      message: "Expected 1 to 10000 shards (the same on every node)",
      validation: (n) => n >= 1 && n <= 10_000
    }),
    Config.withDescription("The number of shards; must be the same on every node of a cluster")
  ),
  entityMaxIdleTime: Config.duration("PARLEY_ENTITY_IDLE_TIME").pipe(
    Config.withDefault(Duration.minutes(5)),
    Config.withDescription("A conversation idle this long leaves memory (its state stays in the database)")
  )
}).pipe(
  Config.validate({
    message: "PARLEY_SHARD_LOCK_REFRESH_INTERVAL must be at most a third of PARLEY_SHARD_LOCK_EXPIRATION",
    validation: (timing) =>
      Duration.lessThanOrEqualTo(Duration.times(timing.lockRefreshInterval, 3), timing.lockExpiration)
  })
)

/**
 * How long one turn may compute, and how many times a turn that dies or
 * overruns is tried before it is recorded as failed (a poison message must
 * not stall its session or its node for good; see docs/CLUSTER.md).
 */
export const TurnLimits = Config.all({
  timeLimit: Config.duration("PARLEY_TURN_TIME_LIMIT").pipe(
    Config.withDefault(Duration.seconds(20)),
    Config.withDescription("How long a turn may compute before the attempt counts as failed")
  ),
  attempts: Config.integer("PARLEY_TURN_ATTEMPTS").pipe(
    Config.withDefault(3),
    Config.validate({ message: "Expected 1 to 100 attempts", validation: (n) => n >= 1 && n <= 100 }),
    Config.withDescription("How many failed attempts a turn gets before it answers TurnFailed for good")
  )
})

/**
 * How much work a node admits at once (0: no bound). Beyond it a request is
 * refused at once with `503 Overloaded` and `Retry-After`, rather than queued
 * until its client gives up (see docs/OPERATIONS.md for how to size them).
 */
export const AdmissionSettings = Config.all({
  maxTurnsInFlight: Config.integer("PARLEY_MAX_TURNS_IN_FLIGHT").pipe(
    Config.withDefault(32),
    Config.validate({ message: "Expected 0 (no bound) or more", validation: (n) => n >= 0 }),
    Config.withDescription("Turns a node takes on at once; more are refused with 503 and Retry-After (0: no bound)")
  ),
  maxRequestsInFlight: Config.integer("PARLEY_MAX_REQUESTS_IN_FLIGHT").pipe(
    Config.withDefault(256),
    Config.validate({ message: "Expected 0 (no bound) or more", validation: (n) => n >= 0 }),
    Config.withDescription(
      "HTTP requests a node handles at once, health and metrics excepted; more get 503 and Retry-After (0: no bound)"
    )
  )
})

/**
 * How long a node's fibers may hold its event loop before Node reads its
 * sockets again (see `FairScheduler.ts`); 0 keeps Effect's own scheduler.
 */
export const SchedulerSlice = Config.duration("PARLEY_SCHEDULER_SLICE").pipe(
  Config.withDefault(Duration.millis(5)),
  Config.validate({
    message: "Expected 0 (Effect's scheduler) to 1 second",
    validation: (slice) => Duration.lessThanOrEqualTo(slice, Duration.seconds(1))
  }),
  Config.withDescription("How long fibers may run before the node reads its sockets again (0: Effect's scheduler)")
)

/**
 * How many new connections a node's HTTP server may accept per turn of its
 * event loop (see `http/MultiAccept.ts`); 1 is Node's own one.
 */
export const AcceptsPerTurn = Config.integer("PARLEY_ACCEPTS_PER_TURN").pipe(
  Config.withDefault(8),
  Config.validate({ message: "Expected 1 to 64", validation: (n) => n >= 1 && n <= 64 }),
  Config.withDescription("New connections the HTTP server may accept per turn of the event loop (1: Node's one)")
)

/**
 * The operator's exceptions to the outbound address rule (HTTP tools, LLM
 * base URLs): CIDR ranges and host names an outbound call may reach although
 * they are loopback, private or link-local. Empty: public addresses only.
 */
export const OutboundAllowedHosts = Config.string("PARLEY_TOOL_ALLOWED_HOSTS").pipe(
  Config.withDefault(""),
  Config.mapOrFail((text) =>
    Either.mapLeft(
      parseAllowList(text),
      (problem) => ConfigError.InvalidData([], `Expected CIDR ranges or host names: ${problem}`)
    )
  ),
  Config.withDescription(
    "Comma-separated CIDR ranges and host names (`*.x` for subdomains) that HTTP tools and LLM base URLs may reach although private, loopback or link-local"
  )
)

/** How often a node adds the usage it counted in memory (AI tokens) to the database; a crash loses at most this much. */
export const UsageFlushInterval = Config.duration("PARLEY_USAGE_FLUSH_INTERVAL").pipe(
  Config.withDefault(Duration.seconds(5)),
  Config.validate({
    message: "Expected 100 milliseconds to 5 minutes",
    validation: (interval) =>
      Duration.between(interval, { minimum: Duration.millis(100), maximum: Duration.minutes(5) })
  }),
  Config.withDescription("How often each node writes the AI-token usage it counted in memory, e.g. '5 seconds'")
)

/** A JSON setting decoded by a schema; a malformed one is refused at start, by name. */
const jsonSetting = <A, I>(name: string, schema: Schema.Schema<A, I>) =>
  optionalText(name).pipe(
    Config.mapOrFail(Option.match({
      onNone: () => Either.right(Option.none<A>()),
      onSome: (text) =>
        Either.mapBoth(Schema.decodeUnknownEither(Schema.parseJson(schema))(text), {
          onLeft: (error) => ConfigError.InvalidData([name], ParseResult.TreeFormatter.formatErrorSync(error)),
          onRight: Option.some
        })
    }))
  )

/** LLM list prices per million tokens, over the built-in ones (`domain/workspace/AiPrices.ts`). */
export const AiPrices = jsonSetting("PARLEY_AI_PRICES", AiPriceTable).pipe(
  Config.map(Option.match({
    onNone: () => defaultAiPrices,
    onSome: (prices) => ({ ...defaultAiPrices, ...prices })
  })),
  Config.withDescription(
    "JSON {\"provider/model\": {\"inputPerMillion\": 2.5, \"outputPerMillion\": 10}} adding to the built-in prices"
  )
)

/** The plan every workspace of the installation is on; unset: the self-hosted `community` plan, unlimited. */
export const Plan = jsonSetting("PARLEY_PLAN", ConfiguredPlan).pipe(
  Config.map(Option.getOrElse(() => communityPlan)),
  Config.withDescription("JSON plan (key, name, status, provider, entitlements, renewal); unset: community, unlimited")
)

/** Where lead-form submissions are mailed; unset: they are only stored. */
export const LeadsTo = optionalText("PARLEY_LEADS_TO").pipe(
  Config.mapOrFail(Option.match({
    onNone: () => Either.right(Option.none<string>()),
    onSome: (text) =>
      Either.mapBoth(Schema.decodeEither(Email)(text), {
        onLeft: () => ConfigError.InvalidData(["PARLEY_LEADS_TO"], `Expected an email address, not "${text}"`),
        onRight: Option.some
      })
  })),
  Config.withDescription("Address that receives demo and contact-sales requests from POST /v1/leads")
)

/** The variable each field of an LLM connection set by the environment comes from. */
const llmVariables = {
  provider: "PARLEY_LLM_PROVIDER",
  model: "PARLEY_LLM_MODEL",
  baseUrl: "PARLEY_LLM_BASE_URL",
  apiKeySecret: "PARLEY_LLM_API_KEY"
} as const

/**
 * The server's LLM for the workspaces that set none of their own (absent
 * when `PARLEY_LLM_PROVIDER` is unset: Parley's offline provider answers
 * then), with its key. A provider without its model, an `openai-compatible`
 * one without a base URL or an `openai`/`anthropic` one without a key is
 * refused at start, by name.
 */
export const EnvironmentLlm = Config.all({
  provider: optionalText(llmVariables.provider).pipe(
    Config.withDescription(
      "The server's LLM provider for workspaces that set none: " + LlmProvider.literals.join(" | ")
    )
  ),
  model: optionalText(llmVariables.model).pipe(
    Config.withDescription("The server's LLM model, as its provider names it (required with PARLEY_LLM_PROVIDER)")
  ),
  baseUrl: optionalText(llmVariables.baseUrl).pipe(
    Config.withDescription("The base URL of the server's LLM API (required for openai-compatible)")
  ),
  apiKey: optionalSecret(llmVariables.apiKeySecret).pipe(
    Config.withDescription("The API key of the server's LLM (never shown: the API tells only whether one is set)")
  )
}).pipe(
  Config.mapOrFail(({ apiKey, baseUrl, model, provider }) => {
    if (Option.isNone(provider)) {
      return Option.isSome(model) || Option.isSome(baseUrl) || Option.isSome(apiKey)
        ? Either.left(
          ConfigError.InvalidData([], `${llmVariables.provider} is required with the other PARLEY_LLM_ settings`)
        )
        : Either.right(Option.none())
    }
    if (Option.isNone(model)) {
      return Either.left(ConfigError.InvalidData([], `${llmVariables.model} is required with ${llmVariables.provider}`))
    }
    const decoded = Schema.decodeUnknownEither(LlmConnection)({
      provider: provider.value,
      model: model.value,
      baseUrl: Option.getOrNull(baseUrl)
    })
    if (Either.isLeft(decoded)) {
      return Either.left(
        ConfigError.InvalidData([], `PARLEY_LLM_*: ${ParseResult.TreeFormatter.formatErrorSync(decoded.left)}`)
      )
    }
    const problems = connectionProblems(decoded.right, Option.isSome(apiKey))
    return problems.length > 0
      ? Either.left(
        ConfigError.InvalidData(
          [],
          problems.map((p) => `${llmVariables[p.field as keyof typeof llmVariables] ?? p.field}: ${p.message}`).join(
            "; "
          )
        )
      )
      : Either.right(Option.some({ connection: decoded.right, apiKey }))
  })
)

/** When a provider connection's circuit opens, and for how long (see `domain/llm/CircuitBreaker.ts`). */
export const LlmBreakerPolicy = Config.all({
  failureThreshold: Config.integer("PARLEY_LLM_BREAKER_FAILURES").pipe(
    Config.withDefault(5),
    Config.validate({ message: "Expected 1 to 1000", validation: (n) => n >= 1 && n <= 1000 }),
    Config.withDescription(
      "Consecutive failures (time-outs, 5xx, 429, unreachable) after which a node stops calling an LLM connection"
    )
  ),
  coolDownMs: Config.duration("PARLEY_LLM_BREAKER_COOLDOWN").pipe(
    Config.withDefault(Duration.seconds(30)),
    Config.map(Duration.toMillis),
    Config.withDescription(
      "How long an LLM connection's open circuit stays open before one probe call, e.g. '30 seconds'"
    )
  )
})

/**
 * A file of recorded LLM exchanges: with `record`, every provider call goes
 * out and is appended to it; with `replay`, calls are answered from it byte
 * for byte and an unrecorded one fails. Unset: calls go out.
 */
export const LlmCassette = Config.all({
  path: optionalText("PARLEY_LLM_CASSETTE").pipe(
    Config.withDescription("File of recorded LLM HTTP exchanges (JSON lines) to record to or replay from; unset: none")
  ),
  mode: Config.literal("record", "replay")("PARLEY_LLM_CASSETTE_MODE").pipe(
    Config.withDefault("replay" as const),
    Config.withDescription("record | replay: what Parley does with PARLEY_LLM_CASSETTE")
  )
})

/** Every environment variable Parley reads, for the README check. */
export const environmentVariables = [
  "PORT",
  "PARLEY_HOST",
  "PARLEY_ENV",
  "DATABASE_URL",
  "PARLEY_DATA_DIR",
  "PARLEY_DB_POOL_MAX",
  "METRICS_TOKEN",
  "PARLEY_MASTER_KEY",
  "PARLEY_MASTER_KEY_PREVIOUS",
  "PARLEY_PUBLIC_URL",
  "PARLEY_MAIL_LINK_URL",
  "PARLEY_TRUSTED_PROXY_HOPS",
  "PARLEY_JWT_PRIVATE_KEY",
  "PARLEY_SMTP_URL",
  "PARLEY_MAIL_FROM",
  "PARLEY_MAX_BODY_BYTES",
  "PARLEY_MAX_UPLOAD_BYTES",
  "PARLEY_REQUEST_TIMEOUT",
  "PARLEY_MAX_TURNS_IN_FLIGHT",
  "PARLEY_MAX_REQUESTS_IN_FLIGHT",
  "PARLEY_SCHEDULER_SLICE",
  "PARLEY_ACCEPTS_PER_TURN",
  "PARLEY_TOOL_ALLOWED_HOSTS",
  "PARLEY_SESSION_MAX_AGE",
  "PARLEY_SESSION_IDLE_TIMEOUT",
  "PARLEY_REQUIRE_MFA",
  "PARLEY_LOG_LEVEL",
  "PARLEY_RUNNER_HOST",
  "PARLEY_RUNNER_PORT",
  "PARLEY_RUNNER_LISTEN_HOST",
  "PARLEY_SHARD_LOCK_EXPIRATION",
  "PARLEY_SHARD_LOCK_REFRESH_INTERVAL",
  "PARLEY_SHARD_REFRESH_INTERVAL",
  "PARLEY_RUNNER_HEALTH_CHECK_INTERVAL",
  "PARLEY_SHARDS",
  "PARLEY_ENTITY_IDLE_TIME",
  "PARLEY_TURN_TIME_LIMIT",
  "PARLEY_TURN_ATTEMPTS",
  "PARLEY_USAGE_FLUSH_INTERVAL",
  "PARLEY_AI_PRICES",
  "PARLEY_PLAN",
  "PARLEY_LEADS_TO",
  "PARLEY_LLM_PROVIDER",
  "PARLEY_LLM_MODEL",
  "PARLEY_LLM_BASE_URL",
  "PARLEY_LLM_API_KEY",
  "PARLEY_LLM_BREAKER_FAILURES",
  "PARLEY_LLM_BREAKER_COOLDOWN",
  "PARLEY_LLM_CASSETTE",
  "PARLEY_LLM_CASSETTE_MODE",
  "OTEL_EXPORTER_OTLP_ENDPOINT"
] as const
