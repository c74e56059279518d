import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { Leads } from "../../services/workspace/Leads.js"
import { Api } from "../Api.js"

export const LeadsHttpLive = HttpApiBuilder.group(Api, "leads", (handlers) =>
  Effect.gen(function*() {
    const leads = yield* Leads

    return handlers.handle("submit", ({ payload }) =>
      Effect.flatMap(CurrentOrigin, (origin) => leads.submit(payload, origin)))
  }))
