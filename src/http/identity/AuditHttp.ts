import { HttpApiBuilder } from "@effect/platform"
import { DateTime, Effect } from "effect"
import { ValidationFailed } from "../../domain/HttpErrors.js"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { AuditLog } from "../../services/AuditLog.js"
import { Api } from "../Api.js"

export const AuditHttpLive = HttpApiBuilder.group(Api, "audit", (handlers) =>
  Effect.gen(function*() {
    const log = yield* AuditLog
    return handlers.handle("list", ({ urlParams }) =>
      Effect.gen(function*() {
        if (
          urlParams.from !== undefined && urlParams.to !== undefined && DateTime.lessThan(urlParams.to, urlParams.from)
        ) {
          return yield* new ValidationFailed({ message: "`to` must not be before `from`", fields: ["to"] })
        }
        return yield* log.list((yield* CurrentPrincipal).workspaceId, urlParams)
      }))
  }))
