import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { LeadId } from "../../domain/workspace/Ids.js"
import type { Lead } from "../../domain/workspace/Lead.js"

/** A lead as stored: what the visitor sent, whether a bot filled the honeypot, and where it came from. */
export interface LeadRow extends Omit<typeof Lead.Type, "createdAt" | "utm"> {
  readonly utm: string | null
  readonly spam: boolean
  readonly honeypot: string | null
  readonly ipAddress: string | null
  readonly userAgent: string | null
  readonly createdAt: Date
}

/** `leads`: the public forms' requests, for the installation's operator. */
export class LeadRepo extends Effect.Service<LeadRepo>()("parley/persistence/LeadRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    return {
      insert: (row: LeadRow) =>
        // `utm` is JSON text: the client would rename the keys of an object.
        sql`INSERT INTO leads ${sql.insert({ ...row })}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("LeadRepo.insert")
        ),
      /** Note that the lead was mailed to the operator. */
      markMailed: (id: LeadId, at: Date) =>
        sql`UPDATE leads SET mailed_at = ${at} WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("LeadRepo.markMailed")
        )
    } as const
  })
}) {}
