import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { ErrorReports } from "../../services/workspace/ErrorReports.js"
import { Api } from "../Api.js"

export const SupportHttpLive = HttpApiBuilder.group(Api, "support", (handlers) =>
  Effect.gen(function*() {
    const reports = yield* ErrorReports

    return handlers.handle("reportError", ({ payload }) =>
      Effect.flatMap(CurrentPrincipal, (principal) => reports.report(principal, payload)))
  }))
