/**
 * A model call that failed, as Parley reports it: the kind (authentication,
 * unknown model, rate limit, time-out, refused by the outbound rule, ...), the
 * provider's message with every credential stripped, the HTTP status when
 * there was an answer, and how long the provider asked us to wait.
 */
import { AiError } from "@effect/ai"
import { Predicate, Schema } from "effect"
import { kindOfStatus, retryAfterMillis, stripCredentials } from "../../domain/llm/LlmFailureRules.js"
import { LlmFailureKind } from "../../domain/settings/LlmConnectionTest.js"

/** A typed failure of one call to a language model (or of the decision not to make it). */
export class LlmCallFailure extends Schema.TaggedError<LlmCallFailure>()("LlmCallFailure", {
  kind: LlmFailureKind,
  message: Schema.String,
  httpStatus: Schema.NullOr(Schema.Int),
  /** The wait a `Retry-After` asked for, in milliseconds; null when none was given. */
  retryAfterMs: Schema.NullOr(Schema.Number)
}) {}

/** A failure Parley decides itself (no answer to read): the message is Parley's own. */
export const llmFailure = (kind: LlmFailureKind, message: string, retryAfterMs: number | null = null) =>
  new LlmCallFailure({ kind, message, httpStatus: null, retryAfterMs })

/** The failure an AiError stands for, when the error carries one (a refusal made inside Parley's HTTP client). */
const carried = (error: unknown): LlmCallFailure | undefined => {
  for (let cause: unknown = error, depth = 0; cause !== undefined && depth < 8; depth++) {
    if (cause instanceof LlmCallFailure) return cause
    cause = Predicate.hasProperty(cause, "cause") ? cause.cause : undefined
  }
  return undefined
}

/** The first error in the cause chain that carries a system error code (`ENOTFOUND`, `ECONNREFUSED`, a TLS code). */
const coded = (error: unknown): { readonly code: string; readonly message: string } | undefined => {
  for (let cause: unknown = error, depth = 0; cause !== undefined && depth < 8; depth++) {
    if (Predicate.hasProperty(cause, "code") && typeof cause.code === "string") {
      return { code: cause.code, message: cause instanceof Error ? cause.message : cause.code }
    }
    cause = Predicate.hasProperty(cause, "cause") ? cause.cause : undefined
  }
  return undefined
}

const tlsCodes = /^(ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_SSL)/

const transportFailure = (cause: unknown, url: string, secrets: ReadonlyArray<string>): LlmCallFailure => {
  const error = coded(cause)
  const code = error?.code
  const host = (() => {
    try {
      return new URL(url).host
    } catch {
      return url
    }
  })()
  if (code === "EPARLEY_OUTBOUND_REFUSED") {
    // The outbound rule's own message: host, address and its class, nothing else.
    return llmFailure("outbound-refused", error!.message)
  }
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return llmFailure("host-not-found", `cannot resolve the host ${host}`)
  }
  if (code !== undefined && tlsCodes.test(code)) {
    return llmFailure("tls", `the TLS handshake with ${host} failed (${code})`)
  }
  const detail = code ?? (cause instanceof Error ? cause.message : "transport error")
  return llmFailure("network", stripCredentials(`cannot reach ${host}: ${detail}`, secrets))
}

/** The message a provider put in its error body (OpenAI's and Anthropic's `error.message`), else the body itself. */
const providerMessage = (body: string | undefined): string => {
  if (body === undefined || body === "") return ""
  try {
    const parsed: unknown = JSON.parse(body)
    if (Predicate.hasProperty(parsed, "error")) {
      const error = parsed.error
      if (Predicate.hasProperty(error, "message") && typeof error.message === "string") return error.message
      if (typeof error === "string") return error
    }
  } catch {
    // not JSON: the text as it came
  }
  return body
}

/** Classify an @effect/ai error; `secrets` are the values to strip from any message (the API key). */
export const fromAiError = (error: AiError.AiError, secrets: ReadonlyArray<string>): LlmCallFailure => {
  const own = carried(error)
  if (own !== undefined) return own
  switch (error._tag) {
    case "HttpResponseError": {
      if (error.reason !== "StatusCode") {
        return llmFailure("provider-error", stripCredentials(`unreadable answer: ${error.description ?? ""}`, secrets))
      }
      const status = error.response.status
      const body = error.body ?? ""
      const text = providerMessage(body)
      return new LlmCallFailure({
        kind: kindOfStatus(status, body),
        message: stripCredentials(text === "" ? `HTTP ${status}` : text, secrets),
        httpStatus: status,
        retryAfterMs: retryAfterMillis(error.response.headers, Date.now())
      })
    }
    case "HttpRequestError":
      return transportFailure(error.cause, error.request.url, secrets)
    case "MalformedOutput":
      return llmFailure("provider-error", stripCredentials(`unreadable answer: ${error.description ?? ""}`, secrets))
    case "MalformedInput":
      return llmFailure("bad-request", stripCredentials(error.description ?? "the request was not valid", secrets))
    case "UnknownError":
      return llmFailure("provider-error", stripCredentials(error.description ?? "unknown error", secrets))
  }
}

/** An AiError carrying a failure Parley decided (a refusal, a time-out), so it travels the LanguageModel's error channel. */
export const asAiError = (failure: LlmCallFailure, method: string): AiError.AiError =>
  new AiError.UnknownError({ module: "LlmClients", method, description: failure.message, cause: failure })
