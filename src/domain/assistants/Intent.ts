import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { patternRefusal } from "../patterns/UserPattern.js"
import { AssistantId } from "./Assistant.js"

/** One intent of an Assistant. */
export const IntentId = Schema.UUID.pipe(Schema.brand("IntentId"))
export type IntentId = typeof IntentId.Type

/** An intent or slot name as flows refer to it: `greet`, `order.status`, `ask_refund`. */
export const IntentName = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z][A-Za-z0-9_.-]{0,79}$/),
  Schema.annotations({ identifier: "IntentName", examples: ["order_status"] })
)

/** A built-in entity kind, extracted without any model. */
export const BuiltinEntityKind = Schema.Literal("number", "email", "datetime", "phone", "url")

/** A value of a list entity and the synonyms that also mean it. */
export const ListEntityValue = Schema.Struct({
  value: Schema.NonEmptyTrimmedString,
  synonyms: Schema.optionalWith(Schema.Array(Schema.NonEmptyTrimmedString), { default: () => [] })
})

/**
 * What a slot extracts: a built-in kind, a closed list with synonyms, or a
 * regular expression (RE2 syntax, run in linear time: see `UserPattern`).
 */
export const EntityDefinition = Schema.Union(
  Schema.Struct({ kind: BuiltinEntityKind }),
  Schema.Struct({
    kind: Schema.Literal("list"),
    values: Schema.Array(ListEntityValue).pipe(Schema.minItems(1), Schema.maxItems(5000))
  }),
  Schema.Struct({
    kind: Schema.Literal("regex"),
    pattern: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500))
  })
).annotations({ identifier: "EntityDefinition" })

/** A named value an intent carries, e.g. the `city` of `book_flight`. */
export const Slot = Schema.Struct({
  name: IntentName,
  entity: EntityDefinition,
  required: Schema.optionalWith(Schema.Boolean, { default: () => false })
}).annotations({ identifier: "Slot" })

/**
 * Slots as an intent is written: a regex slot whose pattern Parley cannot run
 * (see `UserPattern`) is refused, with its path. Checked where intents are
 * written, not where they are read: an intent stored before a pattern rule
 * changed stays readable, and the flow analysis reports its pattern.
 */
export const WrittenSlots = Schema.Array(Slot).pipe(
  Schema.maxItems(50),
  Schema.filter((slots) =>
    slots.flatMap((slot, index) => {
      if (slot.entity.kind !== "regex") return []
      const refusal = patternRefusal(slot.entity.pattern)
      return refusal === undefined ? [] : [{
        path: [index, "entity", "pattern"],
        message: `The pattern of the slot ${slot.name} cannot be used: ${refusal}`
      }]
    })
  )
)

const storedSlots = Schema.optionalWith(Schema.Array(Slot).pipe(Schema.maxItems(50)), { default: () => [] })

/** An example utterance: 1 to 500 characters. */
export const Utterance = Schema.Trim.pipe(
  Schema.nonEmptyString(),
  Schema.maxLength(500),
  // the document shows the encoded side (a string before trimming): this names the example it offers
  Schema.annotations({
    jsonSchema: { type: "string", description: "a string that will be trimmed", examples: ["Where is my order?"] }
  })
)

/** An intent: a name, the example utterances that teach it, and the slots it fills. */
export class Intent extends Model.Class<Intent>("Intent")({
  id: Model.Generated(IntentId),
  agentId: Model.FieldExcept("jsonCreate", "jsonUpdate")(AssistantId),
  name: IntentName,
  description: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(1000)), { default: () => "" }),
  utterances: Schema.Array(Utterance).pipe(Schema.maxItems(10_000)),
  slots: Model.Field({
    select: storedSlots,
    insert: storedSlots,
    update: storedSlots,
    json: storedSlots,
    jsonCreate: Schema.optionalWith(WrittenSlots, { default: () => [] }),
    jsonUpdate: Schema.optionalWith(WrittenSlots, { default: () => [] })
  }),
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate
}) {}

/** The fields of a new intent; unknown fields and patterns Parley cannot run are refused. */
export const IntentCreate = Intent.jsonCreate.annotations({
  identifier: "IntentCreate",
  parseOptions: { onExcessProperty: "error" }
})

/** A partial update of an intent; unknown fields and patterns Parley cannot run are refused. */
export const IntentPatch = Schema.Struct({
  name: Schema.optional(IntentName),
  description: Schema.optional(Schema.String.pipe(Schema.maxLength(1000))),
  utterances: Schema.optional(Schema.Array(Utterance).pipe(Schema.maxItems(10_000))),
  slots: Schema.optional(WrittenSlots)
}).annotations({ identifier: "IntentPatch", parseOptions: { onExcessProperty: "error" } })

/** No intent with this id exists on the Assistant. */
export class IntentNotFound extends Schema.TaggedError<IntentNotFound>()(
  "IntentNotFound",
  { intentId: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}

/** Another intent of the Assistant already has this name. */
export class IntentNameTaken extends Schema.TaggedError<IntentNameTaken>()(
  "IntentNameTaken",
  { name: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}
