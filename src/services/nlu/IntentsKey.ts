/** A digest of an intents set: equal for equal intents (names and utterances, in order), whoever holds them. */
import { createHash } from "node:crypto"
import type { TrainingIntent } from "../../domain/nlu/IntentModel.js"

export const intentsKey = (intents: ReadonlyArray<TrainingIntent>): string =>
  createHash("sha256")
    .update(JSON.stringify(intents.map((intent) => [intent.name, intent.utterances])))
    .digest("base64url")
