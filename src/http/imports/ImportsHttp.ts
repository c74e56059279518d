import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { readFile } from "node:fs/promises"
import { ValidationFailed } from "../../domain/HttpErrors.js"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import type { ImportTarget } from "../../domain/imports/ImportRequest.js"
import { IMPORT_LIMITS } from "../../domain/imports/ImportRequest.js"
import { convertArchive, convertContent, convertDrawio, convertFiles } from "../../domain/imports/ImportSource.js"
import { Imports } from "../../services/imports/Imports.js"
import { Api } from "../Api.js"

/** The target of a zip upload, from its form fields: `name` or `agentId`, exactly one. */
const archiveTarget = (fields: {
  readonly name?: string | undefined
  readonly agentId?: ImportTarget extends infer T ? T extends { agentId: infer A } ? A | undefined : never : never
  readonly intents?: "merge" | "replace" | undefined
  readonly revision?: number | undefined
}): Effect.Effect<ImportTarget, ValidationFailed> => {
  if ((fields.name === undefined) === (fields.agentId === undefined)) {
    return Effect.fail(
      new ValidationFailed({
        message: "Send `name` for a new Assistant or `agentId` for an existing one, exactly one of the two",
        fields: ["name", "agentId"]
      })
    )
  }
  return Effect.succeed(
    fields.agentId !== undefined
      ? {
        kind: "replace",
        agentId: fields.agentId,
        intents: fields.intents ?? "merge",
        ...(fields.revision === undefined ? {} : { revision: fields.revision as never })
      }
      : { kind: "new", name: fields.name!, description: "", language: "en", nluThreshold: null }
  )
}

export const ImportsHttpLive = HttpApiBuilder.group(Api, "imports", (handlers) =>
  Effect.gen(function*() {
    const imports = yield* Imports

    return handlers
      .handle("importDrawio", ({ payload }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          return yield* imports.run(
            principal,
            "drawio",
            payload.target,
            () => convertDrawio(payload.xml, payload.mainPage),
            yield* CurrentOrigin
          )
        }))
      .handle("importSource", ({ payload }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const origin = yield* CurrentOrigin
          if ("archive" in payload) {
            const target = yield* archiveTarget(payload)
            const bytes = yield* Effect.tryPromise(() => readFile(payload.archive.path)).pipe(Effect.orDie)
            if (bytes.length > IMPORT_LIMITS.bodyBytes) {
              return yield* new ValidationFailed({ message: "The archive is larger than 10 MiB", fields: ["archive"] })
            }
            return yield* imports.run(
              principal,
              payload.format,
              target,
              () => convertArchive(payload.format, new Uint8Array(bytes)),
              origin
            )
          }
          if ("content" in payload) {
            return yield* imports.run(
              principal,
              payload.format,
              payload.target,
              () => convertContent(payload.format, payload.content, payload.fileName),
              origin
            )
          }
          return yield* imports.run(
            principal,
            payload.format,
            payload.target,
            () => convertFiles(payload.format, payload.files),
            origin
          )
        }))
      .handle(
        "list",
        ({ urlParams }) =>
          Effect.flatMap(CurrentPrincipal, (principal) => imports.list(principal.workspaceId, urlParams))
      )
      .handle(
        "get",
        ({ path }) => Effect.flatMap(CurrentPrincipal, (principal) => imports.get(principal.workspaceId, path.id))
      )
  }))
