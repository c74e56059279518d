import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { RuntimeSessions } from "../../services/runtime/RuntimeSessions.js"
import { Api } from "../Api.js"

export const RuntimeHttpLive = HttpApiBuilder.group(Api, "runtime", (handlers) =>
  Effect.gen(function*() {
    const sessions = yield* RuntimeSessions

    return handlers
      .handle("startSession", ({ payload }) => Effect.flatMap(CurrentPrincipal, (who) => sessions.start(who, payload)))
      .handle("sendTurn", ({ headers, path, payload }) =>
        Effect.flatMap(
          CurrentPrincipal,
          (who) => sessions.turn(who, path.id, payload, headers["idempotency-key"])
        ))
      .handle("getSession", ({ path }) => Effect.flatMap(CurrentPrincipal, (who) => sessions.get(who, path.id)))
  }))
