import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { SecretName } from "../../domain/workspace/Ids.js"
import { ResourceKind, type ResourceRef } from "../../domain/workspace/ResourceRef.js"

const ReferenceRow = Schema.Struct({
  resourceKind: ResourceKind,
  resourceId: Schema.String,
  resourceName: Schema.NullOr(Schema.String)
})
const decodeRows = Schema.decodeUnknown(Schema.Array(ReferenceRow))

/** Which resources name which vault secrets (`secret_references`). */
export class SecretReferenceRepo
  extends Effect.Service<SecretReferenceRepo>()("parley/persistence/SecretReferenceRepo", {
    effect: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      return {
        /** The resource names exactly these secrets now. */
        replace: (workspaceId: WorkspaceId, resource: ResourceRef, names: ReadonlyArray<SecretName>) =>
          Effect.gen(function*() {
            yield* sql`DELETE FROM secret_references WHERE workspace_id = ${workspaceId}
            AND resource_kind = ${resource.kind} AND resource_id = ${resource.id}`
            const rows = [...new Set(names)].map((name) => ({
              workspaceId,
              secretName: name,
              resourceKind: resource.kind,
              resourceId: resource.id,
              resourceName: resource.name ?? null
            }))
            if (rows.length > 0) yield* sql`INSERT INTO secret_references ${sql.insert(rows)}`
          }).pipe(Effect.orDie, Effect.withSpan("SecretReferenceRepo.replace")),
        usersOf: (workspaceId: WorkspaceId, name: SecretName) =>
          sql`SELECT resource_kind, resource_id, resource_name FROM secret_references
          WHERE workspace_id = ${workspaceId} AND secret_name = ${name} ORDER BY resource_kind, resource_id`.pipe(
            Effect.flatMap(decodeRows),
            Effect.map((rows) =>
              rows.map((row): ResourceRef =>
                row.resourceName === null
                  ? { kind: row.resourceKind, id: row.resourceId }
                  : { kind: row.resourceKind, id: row.resourceId, name: row.resourceName }
              )
            ),
            Effect.orDie,
            Effect.withSpan("SecretReferenceRepo.usersOf")
          )
      } as const
    })
  })
{}
