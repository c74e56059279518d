/**
 * The public demo and contact-sales form. Each address may send a few a hour
 * (counted in PostgreSQL, so every node shares the count; 429 with
 * Retry-After past it). A lead is stored, then mailed to `PARLEY_LEADS_TO`
 * when it is set; a mail the server refuses is logged and the lead stays
 * stored. A filled honeypot (`website`) gets the same 202, is stored as spam
 * and mailed to nobody, so a bot learns nothing from the answer.
 */
import { Effect, Option } from "effect"
import { v7 as uuidv7 } from "uuid"
import { LeadsTo } from "../../config/Settings.js"
import type { Origin } from "../../domain/identity/Origin.js"
import type { LeadId } from "../../domain/workspace/Ids.js"
import type { LeadAccepted, LeadSubmission } from "../../domain/workspace/Lead.js"
import { leadMail } from "../../domain/workspace/LeadMail.js"
import { LeadRepo } from "../../persistence/workspace/LeadRepo.js"
import { Mailer } from "../../providers/Mailer.js"
import { currentDate } from "../assistants/Assistants.js"
import { RateLimiter, type RateRule } from "../RateLimiter.js"

/** Leads one client address may send. */
export const leadsPerAddress: RateRule = { name: "leads.address", limit: 5, window: "1 hour" }

export class Leads extends Effect.Service<Leads>()("parley/services/workspace/Leads", {
  effect: Effect.gen(function*() {
    const repo = yield* LeadRepo
    const limiter = yield* RateLimiter
    const mailer = yield* Mailer
    const leadsTo = yield* LeadsTo

    /** Take a lead from the public form; `RateLimited` past the address's limit. */
    const submit = Effect.fn("Leads.submit")(
      function*(submission: typeof LeadSubmission.Type, origin: Origin) {
        yield* limiter.consume(leadsPerAddress, origin.ipAddress ?? "unknown")
        const { website, ...lead } = submission
        const honeypot = website === undefined || website.trim() === "" ? null : website
        const id = uuidv7() as LeadId
        const createdAt = yield* currentDate
        yield* repo.insert({
          ...lead,
          id,
          utm: lead.utm === null ? null : JSON.stringify(lead.utm),
          spam: honeypot !== null,
          honeypot,
          ipAddress: origin.ipAddress,
          userAgent: origin.userAgent,
          createdAt
        })
        if (honeypot !== null) {
          yield* Effect.logInfo("Lead dropped as spam (honeypot filled)").pipe(Effect.annotateLogs({ leadId: id }))
        } else if (Option.isSome(leadsTo)) {
          yield* mailer.send(leadMail(leadsTo.value, { ...lead, id })).pipe(
            Effect.zipRight(Effect.flatMap(currentDate, (at) => repo.markMailed(id, at))),
            Effect.catchAll((error) =>
              Effect.logWarning("Lead stored but not mailed").pipe(
                Effect.annotateLogs({ leadId: id, reason: error.message })
              )
            )
          )
        }
        return { leadId: id, status: "received" } satisfies typeof LeadAccepted.Type
      }
    )

    return { submit } as const
  }),
  dependencies: [LeadRepo.Default]
}) {}
