/**
 * The workspace vault: secrets stored under envelope encryption (see
 * `Envelope`), listed and written by admins, and read server-side only,
 * through the `SecretValues` port, by the tools, providers and channels that
 * need a value at the moment they run. Values never leave through an answer,
 * a log line, a trace attribute or the audit log, which records every write
 * and every use by name and version.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Redacted } from "effect"
import { v7 as uuidv7 } from "uuid"
import type { Origin } from "../../domain/identity/Origin.js"
import { actorOf, type Principal } from "../../domain/identity/Principal.js"
import { pageOf } from "../../domain/Pagination.js"
import type { SecretId, SecretName } from "../../domain/workspace/Ids.js"
import type { ResourceRef } from "../../domain/workspace/ResourceRef.js"
import {
  maskedHint,
  SecretInUse,
  type SecretListParams,
  SecretNameTaken,
  SecretNotFound,
  SecretReferenceMissing,
  SecretVersionConflict
} from "../../domain/workspace/Secret.js"
import { transaction } from "../../persistence/Transaction.js"
import { SecretReferenceRepo } from "../../persistence/workspace/SecretReferenceRepo.js"
import { SecretRepo } from "../../persistence/workspace/SecretRepo.js"
import { AuditLog } from "../AuditLog.js"
import { MasterKey } from "../MasterKey.js"
import { workspaceEntry } from "../WorkspaceAudit.js"
import { openValue, sealValue } from "./Envelope.js"
import type { SecretUse } from "./SecretValues.js"

const notFound = (id: SecretId) => new SecretNotFound({ secretId: id, message: "No such secret in this workspace" })

export class Vault extends Effect.Service<Vault>()("parley/services/workspace/Vault", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const repo = yield* SecretRepo
    const references = yield* SecretReferenceRepo
    const log = yield* AuditLog
    const masterKeys = yield* MasterKey
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const list = Effect.fn("Vault.list")(
      function*(principal: Principal, params: typeof SecretListParams.Type) {
        const { limit, offset } = pageOf(params)
        const { items, total } = yield* repo.page(principal.workspaceId, params.q, limit, offset)
        return { items, total, limit, offset }
      }
    )

    const create = Effect.fn("Vault.create")(function*(
      principal: Principal,
      input: { name: SecretName; description: string; value: Redacted.Redacted<string> },
      origin: Origin
    ) {
      const id = uuidv7() as SecretId
      const value = Redacted.value(input.value)
      const actor = actorOf(principal)
      const inserted = yield* repo.insert(
        {
          id,
          workspaceId: principal.workspaceId,
          name: input.name,
          description: input.description,
          maskedHint: maskedHint(value),
          createdBy: actor,
          at: yield* now
        },
        sealValue(value, { secretId: id, version: 1 }, masterKeys.current)
      )
      if (!inserted) {
        return yield* new SecretNameTaken({
          name: input.name,
          message: "Another secret of this workspace has this name"
        })
      }
      yield* log.append(workspaceEntry(principal, origin, {
        action: "secret.created",
        resourceType: "secret",
        resourceId: id,
        summary: { before: null, after: { name: input.name, version: 1, description: input.description } }
      }))
      return Option.getOrThrow(yield* repo.find(principal.workspaceId, id))
    }, transactional)

    /**
     * Store a new value as the next version. Two rotations at once are
     * serialised by the secret's row lock: with the same `expectedVersion`
     * the second finds the version moved and is refused; without one, both
     * apply, one after the other.
     */
    const rotate = Effect.fn("Vault.rotate")(function*(
      principal: Principal,
      id: SecretId,
      input: { value: Redacted.Redacted<string>; expectedVersion?: number | undefined },
      origin: Origin
    ) {
      const value = Redacted.value(input.value)
      const actor = actorOf(principal)
      const at = yield* now
      const row = yield* repo.nextVersion(principal.workspaceId, id, input.expectedVersion, {
        maskedHint: maskedHint(value),
        updatedBy: actor,
        at
      })
      if (row === undefined) {
        const current = yield* repo.find(principal.workspaceId, id)
        if (Option.isNone(current)) return yield* notFound(id)
        return yield* new SecretVersionConflict({
          expected: input.expectedVersion ?? 0,
          actual: current.value.version,
          message: `The secret is at version ${current.value.version}; read it again before rotating`
        })
      }
      yield* repo.replaceVersion({
        ...sealValue(value, { secretId: id, version: row.version }, masterKeys.current),
        secretId: id,
        version: row.version,
        createdBy: actor,
        at
      })
      yield* log.append(workspaceEntry(principal, origin, {
        action: "secret.rotated",
        resourceType: "secret",
        resourceId: id,
        summary: { before: { version: row.version - 1 }, after: { name: row.name, version: row.version } }
      }))
      return row
    }, transactional)

    /** Delete a secret; while resources name it, only with `force`. */
    const remove = Effect.fn("Vault.delete")(function*(
      principal: Principal,
      id: SecretId,
      force: boolean,
      origin: Origin
    ) {
      // Locked first: a writer recording a reference share-locks the secret, so the users read below are all of them.
      const found = yield* repo.findForUpdate(principal.workspaceId, id)
      if (Option.isNone(found)) return yield* notFound(id)
      const usedBy = yield* references.usersOf(principal.workspaceId, found.value.name)
      if (usedBy.length > 0 && !force) {
        return yield* new SecretInUse({
          secretId: id,
          usedBy,
          message: `${usedBy.length} resource(s) use this secret: ${
            usedBy.map((user) => `${user.kind} ${user.name ?? user.id}`).join(", ")
          }; delete with ?force=true to delete it anyway`
        })
      }
      yield* repo.delete(principal.workspaceId, id)
      yield* log.append(workspaceEntry(principal, origin, {
        action: "secret.deleted",
        resourceType: "secret",
        resourceId: id,
        summary: {
          before: { name: found.value.name, version: found.value.version },
          after: { forced: usedBy.length > 0 }
        }
      }))
    }, transactional)

    /** The current value of a secret, for a resource that runs now; counted and audited. */
    const reveal = Effect.fn("Vault.reveal")(function*(use: SecretUse) {
      const used = yield* repo.recordUse(use.workspaceId, use.name, use.usedBy, yield* now)
      if (used === undefined) {
        return yield* new SecretReferenceMissing({
          names: [use.name],
          message: `The workspace vault holds no secret named ${use.name}`
        })
      }
      const sealed = yield* repo.version(used.id, used.version)
      const value = Option.flatMap(
        sealed,
        (row) =>
          Option.flatMap(
            masterKeys.find(row.masterKeyId),
            (master) => Option.fromNullable(openValue(row, { secretId: used.id, version: used.version }, master))
          )
      )
      if (Option.isNone(value)) {
        return yield* Effect.dieMessage(
          `The secret ${used.id} version ${used.version} does not open under any configured master key ` +
            "(PARLEY_MASTER_KEY, PARLEY_MASTER_KEY_PREVIOUS)"
        )
      }
      const span = yield* Effect.option(Effect.currentSpan)
      yield* log.append({
        workspaceId: use.workspaceId,
        actor: use.actor,
        actorDisplay: yield* repo.actorDisplay(use.actor),
        action: "secret.used",
        resourceType: "secret",
        resourceId: used.id,
        summary: { before: null, after: { name: use.name, version: used.version, usedBy: use.usedBy } },
        traceId: Option.getOrNull(Option.map(span, (current) => current.traceId)),
        ipAddress: null,
        userAgent: null
      })
      return Redacted.make(value.value)
    }, transactional)

    const missing = Effect.fn("Vault.missing")(function*(
      workspaceId: Principal["workspaceId"],
      names: ReadonlyArray<SecretName>
    ) {
      const existing = yield* repo.existing(workspaceId, names)
      return [...new Set(names)].filter((name) => !existing.has(name))
    })

    const replaceReferences = Effect.fn("Vault.replaceReferences")(function*(
      workspaceId: Principal["workspaceId"],
      resource: ResourceRef,
      names: ReadonlyArray<SecretName>
    ) {
      yield* references.replace(workspaceId, resource, names)
    }, transactional)

    const usersOf = Effect.fn("Vault.usersOf")(function*(workspaceId: Principal["workspaceId"], name: SecretName) {
      return yield* references.usersOf(workspaceId, name)
    })

    return { list, create, rotate, delete: remove, reveal, missing, replaceReferences, usersOf } as const
  }),
  dependencies: [SecretRepo.Default, SecretReferenceRepo.Default]
}) {}
