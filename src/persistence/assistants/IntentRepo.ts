import { Model, SqlClient, SqlSchema } from "@effect/sql"
import { Effect, type ParseResult, Schema } from "effect"
import { AssistantId } from "../../domain/assistants/Assistant.js"
import { Intent, IntentId, IntentName, Slot, Utterance } from "../../domain/assistants/Intent.js"
import { WorkspaceId } from "../../domain/identity/Ids.js"

/** An intent's JSON columns, read as text so keys come back exactly as written (see `FlowRepo`). */
const UtterancesJson = Schema.parseJson(Schema.Array(Utterance))
const SlotsJson = Schema.parseJson(Schema.Array(Slot))

const IntentFromRow = Schema.transform(
  Schema.Struct({
    id: IntentId,
    agentId: AssistantId,
    name: IntentName,
    description: Schema.String,
    utterances: UtterancesJson,
    slots: SlotsJson,
    createdAt: Model.DateTimeFromDate,
    updatedAt: Model.DateTimeFromDate
  }),
  Schema.typeSchema(Intent),
  { strict: true, decode: (row) => new Intent(row, { disableValidation: true }), encode: (intent) => ({ ...intent }) }
)

/** A new `assistant_intents` row. */
export interface IntentInsert {
  readonly id: IntentId
  readonly agentId: AssistantId
  readonly workspaceId: WorkspaceId
  readonly name: string
  readonly description: string
  readonly utterances: ReadonlyArray<string>
  readonly slots: ReadonlyArray<typeof Slot.Type>
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** The fields of an intent a PATCH may change; absent fields stay as they are. */
export interface IntentChanges {
  readonly name?: string | undefined
  readonly description?: string | undefined
  readonly utterances?: ReadonlyArray<string> | undefined
  readonly slots?: ReadonlyArray<typeof Slot.Type> | undefined
}

const Key = Schema.Struct({ workspaceId: WorkspaceId, agentId: AssistantId, id: IntentId })
const AgentKey = Schema.Struct({ workspaceId: WorkspaceId, agentId: AssistantId })
const PageRequest = Schema.Struct({ ...AgentKey.fields, limit: Schema.Number, offset: Schema.Number })

/** The intents of each Assistant, names unique per Assistant. */
export class IntentRepo extends Effect.Service<IntentRepo>()("parley/persistence/IntentRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const columns = sql`id, agent_id, name, description, utterances::text AS utterances, slots::text AS slots,
      created_at, updated_at`

    const byId = SqlSchema.findOne({
      Request: Key,
      Result: IntentFromRow,
      execute: ({ agentId, id, workspaceId }) =>
        sql`SELECT ${columns} FROM assistant_intents
            WHERE workspace_id = ${workspaceId} AND agent_id = ${agentId} AND id = ${id}`
    })
    const page = SqlSchema.findAll({
      Request: PageRequest,
      Result: IntentFromRow,
      execute: ({ agentId, limit, offset, workspaceId }) =>
        sql`SELECT ${columns} FROM assistant_intents WHERE workspace_id = ${workspaceId} AND agent_id = ${agentId}
            ORDER BY created_at, id LIMIT ${limit} OFFSET ${offset}`
    })
    const remove = SqlSchema.findOne({
      Request: Key,
      Result: IntentFromRow,
      execute: ({ agentId, id, workspaceId }) =>
        sql`DELETE FROM assistant_intents WHERE workspace_id = ${workspaceId} AND agent_id = ${agentId} AND id = ${id}
            RETURNING ${columns}`
    })

    const encodeUtterances = Schema.encode(UtterancesJson)
    const encodeSlots = Schema.encode(SlotsJson)
    const encodeIfSent = <A>(
      value: A | undefined,
      encode: (value: A) => Effect.Effect<string, ParseResult.ParseError>
    ) => value === undefined ? Effect.succeed(undefined) : encode(value)

    const insert = (row: IntentInsert) =>
      Effect.flatMap(
        Effect.all({ utterances: encodeUtterances(row.utterances), slots: encodeSlots(row.slots) }),
        ({ slots, utterances }) =>
          sql<{ id: string }>`
            INSERT INTO assistant_intents
              (id, agent_id, workspace_id, name, description, utterances, slots, created_at, updated_at)
            VALUES (${row.id}, ${row.agentId}, ${row.workspaceId}, ${row.name}, ${row.description},
              ${utterances}::jsonb, ${slots}::jsonb, ${row.createdAt}, ${row.updatedAt})
            ON CONFLICT (agent_id, name) DO NOTHING RETURNING id`
      ).pipe(Effect.map((rows) => rows.length === 1))

    const update = (
      key: { workspaceId: WorkspaceId; agentId: AssistantId; id: IntentId },
      changes: IntentChanges,
      now: Date
    ) =>
      Effect.flatMap(
        Effect.all({
          utterances: encodeIfSent(changes.utterances, encodeUtterances),
          slots: encodeIfSent(changes.slots, encodeSlots)
        }),
        ({ slots, utterances }) =>
          SqlSchema.findOne({
            Request: Key,
            Result: IntentFromRow,
            execute: ({ agentId, id, workspaceId }) =>
              sql`UPDATE assistant_intents SET ${
                sql.csv([
                  ...(changes.name === undefined ? [] : [sql`name = ${changes.name}`]),
                  ...(changes.description === undefined ? [] : [sql`description = ${changes.description}`]),
                  ...(utterances === undefined ? [] : [sql`utterances = ${utterances}::jsonb`]),
                  ...(slots === undefined ? [] : [sql`slots = ${slots}::jsonb`]),
                  sql`updated_at = ${now}`
                ])
              }
              WHERE workspace_id = ${workspaceId} AND agent_id = ${agentId} AND id = ${id} RETURNING ${columns}`
          })(key)
      )

    return {
      findById: (workspaceId: WorkspaceId, agentId: AssistantId, id: IntentId) =>
        byId({ workspaceId, agentId, id }).pipe(Effect.orDie, Effect.withSpan("IntentRepo.findById")),
      /** One page of an Assistant's intents, oldest first. */
      page: (workspaceId: WorkspaceId, agentId: AssistantId, limit: number, offset: number) =>
        page({ workspaceId, agentId, limit, offset }).pipe(Effect.orDie, Effect.withSpan("IntentRepo.page")),
      count: (workspaceId: WorkspaceId, agentId: AssistantId) =>
        sql<{ total: number }>`SELECT count(*)::int AS total FROM assistant_intents
          WHERE workspace_id = ${workspaceId} AND agent_id = ${agentId}`.pipe(
          Effect.map(([row]) => row?.total ?? 0),
          Effect.orDie,
          Effect.withSpan("IntentRepo.count")
        ),
      /** Insert an intent; false when the Assistant already has an intent of that name. */
      insert: (row: IntentInsert) => insert(row).pipe(Effect.orDie, Effect.withSpan("IntentRepo.insert")),
      /** Whether another intent of the Assistant (not `except`) has the name. */
      nameTaken: (workspaceId: WorkspaceId, agentId: AssistantId, name: string, except: IntentId) =>
        sql<{ id: string }>`SELECT id FROM assistant_intents
          WHERE workspace_id = ${workspaceId} AND agent_id = ${agentId} AND name = ${name} AND id <> ${except}`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie,
          Effect.withSpan("IntentRepo.nameTaken")
        ),
      /** Change an intent; `None` when the Assistant has no such intent. */
      update: (workspaceId: WorkspaceId, agentId: AssistantId, id: IntentId, changes: IntentChanges, now: Date) =>
        update({ workspaceId, agentId, id }, changes, now).pipe(Effect.orDie, Effect.withSpan("IntentRepo.update")),
      /** Delete an intent; the row as it was, or `None`. */
      remove: (workspaceId: WorkspaceId, agentId: AssistantId, id: IntentId) =>
        remove({ workspaceId, agentId, id }).pipe(Effect.orDie, Effect.withSpan("IntentRepo.remove"))
    } as const
  })
}) {}
