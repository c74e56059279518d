/**
 * Wizard drafts over HTTP against the real database: CRUD, If-Match races,
 * another workspace's ids, roles, and hostile text.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { AiAgentDraftId } from "../../../src/domain/aiAgents/Ids.js"
import type { Revision } from "../../../src/domain/Revision.js"
import { signUp } from "../../support/Accounts.js"
import { clientOf } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"

/** A draft's fields as the typed client encodes them (its defaults are required on the type side). */
const draftFields = (more: Record<string, unknown> = {}) =>
  ({
    step: "describe",
    name: "",
    description: "",
    proposedSlug: null,
    instructions: "",
    tasks: [],
    tools: [],
    modelSettings: null,
    answers: {},
    ...more
  }) as never

layer(testServer(), { excludeTestServices: true })("AI agent wizard drafts", (it) => {
  it.effect("are created with defaults, read, listed, updated with revisions and deleted", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const created = yield* client.aiAgentDrafts.create({ payload: draftFields({ name: "Billing helper" }) })
      expect(created).toMatchObject({
        step: "describe",
        name: "Billing helper",
        description: "",
        proposedSlug: null,
        tasks: [],
        tools: [],
        modelSettings: null,
        answers: {},
        revision: 1
      })
      expect(yield* client.aiAgentDrafts.get({ path: { id: created.id } })).toEqual(created)
      const task = { title: "Answer billing questions", goal: "Answer them.", successCriteria: ["Answered"] }
      const updated = yield* client.aiAgentDrafts.update({
        path: { id: created.id },
        headers: { "if-match": 1 as Revision },
        payload: {
          step: "tasks",
          tasks: [task],
          tools: [{ kind: "builtin", name: "remember" }],
          answers: { audience_type: { snake_key: ["x"] } }
        }
      })
      expect(updated).toMatchObject({ step: "tasks", name: "Billing helper", tasks: [task], revision: 2 })
      expect(updated.answers).toEqual({ audience_type: { snake_key: ["x"] } })
      const stale = yield* client.aiAgentDrafts.update({
        path: { id: created.id },
        headers: { "if-match": 1 as Revision },
        payload: { name: "Late" }
      }).pipe(Effect.flip)
      expect(stale).toMatchObject({ _tag: "RevisionConflict", expected: 1, actual: 2 })
      const page = yield* client.aiAgentDrafts.list({ urlParams: {} })
      expect(page.items.map((draft) => draft.id)).toEqual([created.id])
      expect(page.total).toBe(1)
      yield* client.aiAgentDrafts.delete({ path: { id: created.id } })
      const gone = yield* client.aiAgentDrafts.get({ path: { id: created.id } }).pipe(Effect.flip)
      expect(gone._tag).toBe("AiAgentDraftNotFound")
    }))

  it.effect("two updates from the same revision: exactly one wins", () =>
    Effect.gen(function*() {
      const client = yield* clientOf(yield* signUp())
      const draft = yield* client.aiAgentDrafts.create({ payload: draftFields() })
      const results = yield* Effect.all(
        ["First", "Second"].map((name) =>
          client.aiAgentDrafts.update({
            path: { id: draft.id },
            headers: { "if-match": 1 as Revision },
            payload: { name }
          }).pipe(
            Effect.either
          )
        ),
        { concurrency: 2 }
      )
      expect(results.filter((result) => result._tag === "Right")).toHaveLength(1)
      const lost = results.find((result) => result._tag === "Left")
      expect(lost?._tag === "Left" && lost.left._tag).toBe("RevisionConflict")
      expect((yield* client.aiAgentDrafts.get({ path: { id: draft.id } })).revision).toBe(2)
    }))

  it.effect("another workspace's draft is not found, and a missing one is a typed 404", () =>
    Effect.gen(function*() {
      const mine = yield* clientOf(yield* signUp())
      const theirs = yield* clientOf(yield* signUp())
      const draft = yield* mine.aiAgentDrafts.create({ payload: draftFields({ name: "Mine" }) })
      for (
        const attempt of [
          theirs.aiAgentDrafts.get({ path: { id: draft.id } }),
          theirs.aiAgentDrafts.update({ path: { id: draft.id }, headers: {}, payload: { name: "Stolen" } }),
          theirs.aiAgentDrafts.delete({ path: { id: draft.id } }),
          mine.aiAgentDrafts.get({ path: { id: "0190d5c4-0000-7000-8000-000000000000" as AiAgentDraftId } })
        ]
      ) {
        expect((yield* Effect.flip(attempt as Effect.Effect<unknown, { _tag: string }>))._tag).toBe(
          "AiAgentDraftNotFound"
        )
      }
      expect((yield* theirs.aiAgentDrafts.list({ urlParams: {} })).total).toBe(0)
      expect((yield* mine.aiAgentDrafts.get({ path: { id: draft.id } })).name).toBe("Mine")
    }))

  it.effect("NUL bytes, lone surrogates and unknown fields are typed 400s; nothing is stored", () =>
    Effect.gen(function*() {
      const client = yield* clientOf(yield* signUp())
      for (
        const payload of [
          draftFields({ name: "a\u0000b" }),
          draftFields({ instructions: "x\ud800y" }),
          draftFields({ nope: 1 })
        ]
      ) {
        const refused = yield* client.aiAgentDrafts.create({ payload: payload as never }).pipe(Effect.flip)
        expect(["InvalidText", "ParseError", "HttpApiDecodeError"]).toContain(refused._tag)
      }
      expect((yield* client.aiAgentDrafts.list({ urlParams: {} })).total).toBe(0)
    }))
})
