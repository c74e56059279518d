import { Schema } from "effect"
import { LanguageTag } from "../assistants/Assistant.js"
import { HttpUrl } from "../Url.js"
import { SecretName } from "../workspace/Ids.js"

const ProviderModel = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))

const Int = (min: number, max: number) => Schema.Number.pipe(Schema.int(), Schema.between(min, max))

/**
 * Speech to text for a call: `openai` is any OpenAI-compatible audio API
 * (`baseUrl`), `deepgram` streams, `offline` is the deterministic test double.
 * Without `apiKey`, the server's configured key for the provider is used.
 */
export const SpeechToTextSettings = Schema.Struct({
  provider: Schema.Literal("openai", "deepgram", "offline"),
  /** E.g. `whisper-1`, `gpt-4o-transcribe`, `nova-3`; the provider's default when omitted. */
  model: Schema.optional(ProviderModel),
  language: Schema.optionalWith(LanguageTag, { default: () => "en-US" }),
  apiKey: Schema.optional(SecretName),
  baseUrl: Schema.optional(HttpUrl)
}).annotations({ identifier: "SpeechToTextSettings" })

/** Text to speech for a call: an OpenAI-compatible speech API, or the offline test double. */
export const TextToSpeechSettings = Schema.Struct({
  provider: Schema.Literal("openai", "offline"),
  /** The provider's voice, e.g. `alloy`. */
  voice: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)),
  model: Schema.optional(ProviderModel),
  speed: Schema.optional(Schema.Number.pipe(Schema.between(0.25, 4))),
  apiKey: Schema.optional(SecretName),
  baseUrl: Schema.optional(HttpUrl)
}).annotations({ identifier: "TextToSpeechSettings" })

/**
 * How a connection's calls are spoken: the speech providers, whether the caller
 * may interrupt the bot (barge-in clears the bot's queued audio when they start
 * to speak), the silence that ends an utterance, and a cap on call length.
 */
export const VoiceSettings = Schema.Struct({
  speechToText: SpeechToTextSettings,
  textToSpeech: TextToSpeechSettings,
  bargeIn: Schema.optionalWith(Schema.Boolean, { default: () => true }),
  endOfSpeechSilenceMs: Schema.optionalWith(Int(200, 5000), { default: () => 700 }),
  maxCallSeconds: Schema.optionalWith(Int(60, 14_400), { default: () => 3600 })
}).annotations({ identifier: "VoiceSettings" })
export type VoiceSettings = typeof VoiceSettings.Type
