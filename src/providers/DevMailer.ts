/**
 * The development mailer: nothing leaves the process. Each message is logged
 * at Info as "mail (not sent)" with its recipient, subject, tag and links, so
 * a person can finish signup from the console, and kept in an in-memory
 * outbox (the last 500) that tests read through `DevOutbox`.
 */
import { Chunk, Context, Effect, Layer, type Option, Ref } from "effect"
import { Mailer, type MailMessage, type MailTag } from "./Mailer.js"

/** How many messages the outbox keeps; older ones are dropped. */
export const OUTBOX_CAPACITY = 500

/** The development mailer's outbox: what would have been sent, oldest first. */
export class DevOutbox extends Context.Tag("parley/providers/DevOutbox")<DevOutbox, {
  readonly messages: Effect.Effect<ReadonlyArray<MailMessage>>
  /** The newest message to `to` (compared case-insensitively) with this tag. */
  readonly latest: (to: string, tag: MailTag) => Effect.Effect<Option.Option<MailMessage>>
  readonly clear: Effect.Effect<void>
}>() {}

/** A development mailer and the outbox it records into. */
export const make: Effect.Effect<{ readonly mailer: Mailer["Type"]; readonly outbox: DevOutbox["Type"] }> = Effect
  .gen(function*() {
    const sent = yield* Ref.make(Chunk.empty<MailMessage>())

    const mailer: Mailer["Type"] = {
      send: (message) =>
        Ref.update(sent, (messages) => Chunk.takeRight(Chunk.append(messages, message), OUTBOX_CAPACITY)).pipe(
          Effect.zipRight(
            Effect.logInfo("mail (not sent)").pipe(
              Effect.annotateLogs({ to: message.to, subject: message.subject, tag: message.tag, links: message.links })
            )
          ),
          Effect.withSpan("Mailer.send", { attributes: { "mail.tag": message.tag, "mail.adapter": "development" } })
        )
    }

    const outbox: DevOutbox["Type"] = {
      messages: Effect.map(Ref.get(sent), Chunk.toReadonlyArray),
      latest: (to, tag) =>
        Effect.map(
          Ref.get(sent),
          Chunk.findLast((message) => message.tag === tag && message.to.toLowerCase() === to.toLowerCase())
        ),
      clear: Ref.set(sent, Chunk.empty())
    }

    return { mailer, outbox } as const
  })

/** The development mailer and its outbox, for tests that read the mail a flow sent. */
export const layer: Layer.Layer<Mailer | DevOutbox> = Layer.effectContext(
  Effect.map(make, ({ mailer, outbox }) => Context.make(Mailer, mailer).pipe(Context.add(DevOutbox, outbox)))
)
