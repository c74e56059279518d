/**
 * The pure rules of the LLM settings: what a connection needs across its
 * fields, a fallback that repeats the primary, which connection is in force,
 * and the server's `PARLEY_LLM_*` settings, refused at start when they do not
 * make a connection.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Option, Redacted, Schema } from "effect"
import { EnvironmentLlm } from "../../../../src/config/Settings.js"
import { settingsProblems } from "../../../../src/domain/settings/AgentLlmSettings.js"
import { connectionProblems, LlmConnection } from "../../../../src/domain/settings/LlmConnection.js"
import { connectionInForce, defaultLlmConnection } from "../../../../src/domain/settings/LlmInfo.js"

const connection = (fields: Record<string, unknown>) => Schema.decodeUnknownSync(LlmConnection)(fields)
const fieldsOf = (c: LlmConnection, hasKey?: boolean) => connectionProblems(c, hasKey).map((p) => p.field)

const environment = (settings: Record<string, string>) =>
  Effect.runSync(
    Effect.either(Effect.withConfigProvider(EnvironmentLlm, ConfigProvider.fromMap(new Map(Object.entries(settings)))))
  )

describe("a connection's rules", () => {
  it("openai-compatible needs a base URL; keyed providers need a key; offline takes neither", () => {
    expect(fieldsOf(connection({ provider: "openai-compatible", model: "m" }))).toEqual(["baseUrl"])
    expect(fieldsOf(connection({ provider: "openai-compatible", model: "m", baseUrl: "http://h:1/v1" }))).toEqual([])
    for (const provider of ["openai", "anthropic"]) {
      expect(fieldsOf(connection({ provider, model: "m" }))).toEqual(["apiKeySecret"])
      expect(fieldsOf(connection({ provider, model: "m", apiKeySecret: "KEY" }))).toEqual([])
      expect(fieldsOf(connection({ provider, model: "m" }), true)).toEqual([])
    }
    // No Gemini provider on the Effect 3 line: refused, pointing at its OpenAI-compatible endpoint.
    const google = connectionProblems(connection({ provider: "google", model: "gemini-2.5-flash", apiKeySecret: "K" }))
    expect(google.map((p) => p.field)).toEqual(["provider"])
    expect(google[0]?.message).toContain("generativelanguage.googleapis.com/v1beta/openai")
    expect(fieldsOf(connection({ provider: "offline", model: "m" }))).toEqual([])
    expect(
      fieldsOf(connection({ provider: "offline", model: "m", baseUrl: "https://x.example.com", apiKeySecret: "K" }))
    )
      .toEqual(["baseUrl", "apiKeySecret"])
  })

  it("a base URL carries no query or fragment", () => {
    const at = (baseUrl: string) => fieldsOf(connection({ provider: "openai-compatible", model: "m", baseUrl }))
    expect(at("https://x.example.com/v1?key=1")).toEqual(["baseUrl"])
    expect(at("https://x.example.com/v1#part")).toEqual(["baseUrl"])
    expect(at("https://x.example.com/v1/")).toEqual([])
  })

  it("settings name each problem under its connection, and refuse a fallback that is the primary again", () => {
    const primary = connection({ provider: "openai-compatible", model: "m", baseUrl: "https://x.example.com/v1" })
    expect(settingsProblems(primary, { ...primary, temperature: 1 }).map((p) => p.field)).toEqual(["fallback"])
    expect(settingsProblems(primary, { ...primary, model: "other" })).toEqual([])
    expect(settingsProblems(null, connection({ provider: "anthropic", model: "m" })).map((p) => p.field)).toEqual([
      "fallback.apiKeySecret"
    ])
    expect(settingsProblems(null, null)).toEqual([])
  })

  it("an embeddings connection is openai or openai-compatible, with a connection's own rules", () => {
    const embeddings = (fields: Record<string, unknown>) =>
      (settingsProblems(null, null, connection(fields))).map((p) => p.field)
    expect(embeddings({ provider: "openai-compatible", model: "e", baseUrl: "https://x.example.com/v1" })).toEqual([])
    expect(embeddings({ provider: "openai", model: "text-embedding-3-small", apiKeySecret: "K" })).toEqual([])
    expect(embeddings({ provider: "anthropic", model: "m", apiKeySecret: "K" })).toEqual(["embeddings.provider"])
    expect(embeddings({ provider: "google", model: "m", apiKeySecret: "K" })).toEqual(["embeddings.provider"])
    expect(embeddings({ provider: "offline", model: "m" })).toEqual(["embeddings.provider"])
    expect(embeddings({ provider: "openai-compatible", model: "e" })).toEqual(["embeddings.baseUrl"])
    expect(embeddings({ provider: "openai", model: "e" })).toEqual(["embeddings.apiKeySecret"])
  })
})

describe("the LLM in force", () => {
  const own = connection({ provider: "offline", model: "own" })
  const server = connection({ provider: "openai-compatible", model: "env", baseUrl: "http://llm:8000/v1" })
  it("is the workspace's, else the environment's, else the offline default", () => {
    expect(connectionInForce(own, server)).toEqual({ connection: own, source: "workspace" })
    expect(connectionInForce(null, server)).toEqual({ connection: server, source: "environment" })
    expect(connectionInForce(null, null)).toEqual({ connection: defaultLlmConnection, source: "default" })
    expect(connectionProblems(defaultLlmConnection)).toEqual([])
  })
})

describe("PARLEY_LLM_*", () => {
  it("unset (or blank) sets no LLM", () => {
    expect(environment({})).toEqual(Either.right(Option.none()))
    expect(environment({ PARLEY_LLM_PROVIDER: " ", PARLEY_LLM_MODEL: "" })).toEqual(Either.right(Option.none()))
  })

  it("reads a whole connection, with its key kept redacted", () => {
    const read = Either.getOrThrow(environment({
      PARLEY_LLM_PROVIDER: "openai",
      PARLEY_LLM_MODEL: "gpt-4.1-mini",
      PARLEY_LLM_API_KEY: "sk-env"
    }))
    const value = Option.getOrThrow(read)
    expect(value.connection).toMatchObject({
      provider: "openai",
      model: "gpt-4.1-mini",
      baseUrl: null,
      apiKeySecret: null
    })
    expect(Option.map(value.apiKey, Redacted.value)).toEqual(Option.some("sk-env"))
    expect(String(value.apiKey)).not.toContain("sk-env")
  })

  it("is refused at start, by name, when it does not make a connection", () => {
    const refusal = (settings: Record<string, string>) => {
      const read = environment(settings)
      return Either.isLeft(read) ? String(read.left) : "accepted"
    }
    expect(refusal({ PARLEY_LLM_MODEL: "m" })).toContain("PARLEY_LLM_PROVIDER")
    expect(refusal({ PARLEY_LLM_PROVIDER: "openai", PARLEY_LLM_API_KEY: "k" })).toContain("PARLEY_LLM_MODEL")
    expect(refusal({ PARLEY_LLM_PROVIDER: "cohere", PARLEY_LLM_MODEL: "m" })).toContain("PARLEY_LLM_")
    expect(refusal({ PARLEY_LLM_PROVIDER: "openai-compatible", PARLEY_LLM_MODEL: "m" })).toContain(
      "PARLEY_LLM_BASE_URL"
    )
    expect(refusal({ PARLEY_LLM_PROVIDER: "anthropic", PARLEY_LLM_MODEL: "m" })).toContain("PARLEY_LLM_API_KEY")
    expect(
      refusal({ PARLEY_LLM_PROVIDER: "openai-compatible", PARLEY_LLM_MODEL: "m", PARLEY_LLM_BASE_URL: "llm:8000" })
    )
      .toContain("PARLEY_LLM_")
  })
})
