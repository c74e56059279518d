import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { SigningKeys } from "../../services/identity/SigningKeys.js"
import { Api } from "../Api.js"

export const JwksHttpLive = HttpApiBuilder.group(
  Api,
  "jwks",
  (handlers) => Effect.map(SigningKeys, (keys) => handlers.handle("keys", () => Effect.succeed(keys.jwks)))
)
