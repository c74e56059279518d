/**
 * A blank text setting is an unset one (orchestrators write `NAME=` for a
 * variable they have no value for), while a blank typed setting is refused by
 * name: a blank PARLEY_ENV must not quietly mean development.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Option, Redacted } from "effect"
import { checkProductionSettings } from "../../../src/config/ProductionSettings.js"
import {
  DatabaseUrl,
  DataDir,
  Environment,
  Host,
  JwtPrivateKey,
  MailFrom,
  MasterKey,
  MetricsToken,
  OtlpEndpoint,
  Port,
  PublicUrl,
  RunnerAddressSettings,
  SmtpUrl
} from "../../../src/config/Settings.js"

const BLANKS = ["", " ", "\t\n"]

const provider = (settings: Record<string, string>) => ConfigProvider.fromMap(new Map(Object.entries(settings)))

/** A setting (a `Config` is an effect) or a check of settings, read from `settings` alone. */
const read = <A, E>(config: Effect.Effect<A, E>, settings: Record<string, string>) =>
  Effect.runSync(Effect.either(Effect.withConfigProvider(config, provider(settings))))

const optionalSecrets = {
  DATABASE_URL: DatabaseUrl,
  METRICS_TOKEN: MetricsToken,
  PARLEY_MASTER_KEY: MasterKey,
  PARLEY_JWT_PRIVATE_KEY: JwtPrivateKey,
  PARLEY_SMTP_URL: SmtpUrl
}

describe("blank settings", () => {
  it("leave an optional text setting unset, and a given one is read as it is", () => {
    for (const [name, config] of Object.entries(optionalSecrets)) {
      for (const blank of BLANKS) {
        expect(Either.getOrThrow(read(config, { [name]: blank })), `${name}=${JSON.stringify(blank)}`).toEqual(
          Option.none()
        )
      }
      const given = Either.getOrThrow(read(config, { [name]: " value with its spaces " }))
      expect(Option.map(given, Redacted.value), name).toEqual(Option.some(" value with its spaces "))
    }
    expect(Either.getOrThrow(read(OtlpEndpoint, { OTEL_EXPORTER_OTLP_ENDPOINT: "" }))).toEqual(Option.none())
    expect(Either.getOrThrow(read(OtlpEndpoint, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }))).toEqual(
      Option.some("http://collector:4318")
    )
  })

  it("give a text setting with a default its default", () => {
    const blank = { PARLEY_HOST: " ", PARLEY_DATA_DIR: "", PARLEY_PUBLIC_URL: "", PARLEY_MAIL_FROM: " " }
    expect(Either.getOrThrow(read(Host, blank))).toBe("0.0.0.0")
    expect(Either.getOrThrow(read(DataDir, blank))).toBe("./.parley")
    expect(Either.getOrThrow(read(PublicUrl, blank))).toBe("http://localhost:8080")
    expect(Either.getOrThrow(read(MailFrom, blank))).toBe("Parley <no-reply@localhost>")
    const runner = Either.getOrThrow(
      read(RunnerAddressSettings, { PARLEY_RUNNER_HOST: "", PARLEY_RUNNER_LISTEN_HOST: " " })
    )
    expect(runner).toEqual({ host: "127.0.0.1", port: 34431, listenHost: Option.none() })
    expect(Either.getOrThrow(read(Host, { PARLEY_HOST: "127.0.0.2" }))).toBe("127.0.0.2")
  })

  it("make an unset public URL follow the port, so mailed links and snippets reach the node", () => {
    expect(Either.getOrThrow(read(PublicUrl, { PORT: "9123" }))).toBe("http://localhost:9123")
    expect(Either.getOrThrow(read(PublicUrl, { PORT: "9123", PARLEY_PUBLIC_URL: " " }))).toBe("http://localhost:9123")
    expect(Either.getOrThrow(read(PublicUrl, { PORT: "9123", PARLEY_PUBLIC_URL: "https://chat.example.com" })))
      .toBe("https://chat.example.com")
  })

  it("count as missing in production, where they are required", () => {
    const refused = read(checkProductionSettings, {
      PARLEY_ENV: "production",
      DATABASE_URL: "",
      METRICS_TOKEN: " ",
      PARLEY_MASTER_KEY: "",
      PARLEY_JWT_PRIVATE_KEY: "\n",
      PARLEY_SMTP_URL: "",
      PARLEY_PUBLIC_URL: ""
    })
    expect(Either.isLeft(refused)).toBe(true)
    expect(String(Either.flip(refused).pipe(Either.getOrThrow))).toContain(
      "PARLEY_ENV=production requires these settings, which are not set: DATABASE_URL, METRICS_TOKEN, " +
        "PARLEY_MASTER_KEY, PARLEY_JWT_PRIVATE_KEY, PARLEY_SMTP_URL, PARLEY_PUBLIC_URL"
    )
  })

  it("refuse a blank typed setting by name rather than take its default", () => {
    const environment = read(Environment, { PARLEY_ENV: "" })
    expect(Either.isLeft(environment)).toBe(true)
    expect(String(Either.flip(environment).pipe(Either.getOrThrow))).toContain("PARLEY_ENV")
    const port = read(Port, { PORT: " " })
    expect(Either.isLeft(port)).toBe(true)
    expect(String(Either.flip(port).pipe(Either.getOrThrow))).toContain("PORT")
  })
})
