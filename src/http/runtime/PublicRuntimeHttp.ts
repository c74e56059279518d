import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentEmbedCaller } from "../../domain/deployments/EmbedCaller.js"
import { PublicSessions } from "../../services/runtime/PublicSessions.js"
import { Api } from "../Api.js"

export const PublicRuntimeHttpLive = HttpApiBuilder.group(Api, "publicRuntime", (handlers) =>
  Effect.gen(function*() {
    const sessions = yield* PublicSessions

    return handlers
      .handle("startSession", ({ payload }) =>
        Effect.flatMap(CurrentEmbedCaller, (caller) => sessions.start(caller, payload)))
      .handle("sendTurn", ({ headers, path, payload }) =>
        Effect.flatMap(
          CurrentEmbedCaller,
          (caller) =>
            sessions.turn(caller, path.id, payload, headers["idempotency-key"])
        ))
      .handle("getSession", ({ path }) => Effect.flatMap(CurrentEmbedCaller, (caller) => sessions.get(caller, path.id)))
  }))
