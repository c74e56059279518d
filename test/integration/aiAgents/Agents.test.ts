/**
 * AI agents over HTTP against the real database: create (slug unique per
 * workspace), read, list with its filters, update the draft under If-Match
 * (two writers from one revision: one wins), derive tasks by outline (both
 * forms; the agent form skips its tasks), a playground turn on the embedded
 * default's offline model, delete (the slug is free again), another
 * workspace's slug.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Option, Schema } from "effect"
import { AiAgentCreate } from "../../../src/domain/aiAgents/AiAgent.js"
import { AiAgentTaskCreate } from "../../../src/domain/aiAgents/Task.js"
import { AiAgentToolCreate } from "../../../src/domain/aiAgents/Tool.js"
import { AiAgentRepo } from "../../../src/persistence/aiAgents/AiAgentRepo.js"
import { AgentSnapshots } from "../../../src/services/aiAgents/AgentSnapshots.js"
import { signUp } from "../../support/Accounts.js"
import { clientOf } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"

let count = 0
const slugOf = (label: string) => `${label}-${process.pid}-${++count}`
/** A create payload as the typed client sends it: the schema's defaults filled in. */
const agent = (fields: Record<string, unknown>) => Schema.decodeUnknownSync(AiAgentCreate)(fields)

layer(testServer(), { excludeTestServices: true })("AI agents", (it) => {
  it.effect("are created, read, listed, updated under If-Match, derived for and deleted", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const slug = slugOf("support")
      const created = yield* client.aiAgents.create({
        payload: agent({ slug, name: "Support", instructions: "Help with orders." })
      })
      expect(created).toMatchObject({ slug, name: "Support", status: "draft-only", revision: 1, liveVersion: null })
      expect(created.hasUnpublishedChanges).toBe(true)
      expect(yield* client.aiAgents.get({ path: { slug } })).toEqual(created)
      const taken = yield* client.aiAgents.create({ payload: agent({ slug, name: "Again" }) }).pipe(Effect.flip)
      expect(taken._tag).toBe("AiAgentSlugTaken")

      const other = slugOf("sales")
      yield* client.aiAgents.create({ payload: agent({ slug: other, name: "Sales desk" }) })
      const found = yield* client.aiAgents.list({ urlParams: { q: "SALES" } })
      expect(found.items.map((agent) => agent.slug)).toEqual([other])
      const drafts = yield* client.aiAgents.list({ urlParams: { status: "draft-only" } })
      expect(drafts.total).toBe(2)
      expect((yield* client.aiAgents.list({ urlParams: { status: "live" } })).total).toBe(0)

      // Two writers from revision 1: exactly one wins, the other is told the revision moved on.
      const results = yield* Effect.all(
        ["First", "Second"].map((name) =>
          Effect.either(
            client.aiAgents.update({ path: { slug }, headers: { "if-match": 1 as never }, payload: { name } })
          )
        ),
        { concurrency: 2 }
      )
      const wins = results.filter((result) => result._tag === "Right")
      expect(wins).toHaveLength(1)
      const lost = results.find((result) => result._tag === "Left")
      expect(lost?._tag === "Left" && lost.left._tag).toBe("RevisionConflict")
      const now = yield* client.aiAgents.get({ path: { slug } })
      expect(now.revision).toBe(2)

      const wizard = yield* client.aiAgents.deriveTasks({
        payload: { description: "Look up an order. Then explain the refund policy.", maxTasks: 5 }
      })
      expect(wizard.method).toBe("outline")
      expect(wizard.tasks.length).toBeGreaterThanOrEqual(2)
      yield* client.aiAgentTasks.create({
        path: { slug },
        headers: {},
        payload: Schema.decodeUnknownSync(AiAgentTaskCreate)({ ...wizard.tasks[0]! })
      })
      const forAgent = yield* client.aiAgents.deriveAgentTasks({
        path: { slug },
        payload: { description: "Look up an order. Then explain the refund policy.", maxTasks: 5 }
      })
      expect(forAgent.tasks.map((task) => task.title.toLowerCase())).not.toContain(wizard.tasks[0]!.title.toLowerCase())

      // The offline model answers the draft (its default script echoes).
      const turn = yield* client.aiAgents.playground({
        path: { slug },
        urlParams: { stream: false },
        headers: {},
        payload: { message: "hello there" }
      })
      expect(turn.message.content.length).toBeGreaterThan(0)
      expect(turn.conversationId).not.toBeNull()

      yield* client.aiAgents.delete({ path: { slug } })
      expect((yield* client.aiAgents.get({ path: { slug } }).pipe(Effect.flip))._tag).toBe("AiAgentNotFound")
      const again = yield* client.aiAgents.create({ payload: agent({ slug, name: "Support again" }) })
      expect(again.revision).toBe(1)
    }))

  it.effect("another workspace's slug is not found for reads or writes (roles: AuthorizationMatrix)", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const stranger = yield* signUp()
      const slug = slugOf("private")
      yield* (yield* clientOf(owner)).aiAgents.create({ payload: agent({ slug, name: "Private" }) })
      const theirs = yield* clientOf(stranger)
      expect((yield* theirs.aiAgents.get({ path: { slug } }).pipe(Effect.flip))._tag).toBe("AiAgentNotFound")
      expect(
        (yield* theirs.aiAgents.update({ path: { slug }, headers: {}, payload: { name: "x" } }).pipe(Effect.flip))._tag
      ).toBe("AiAgentNotFound")
      expect((yield* theirs.aiAgents.delete({ path: { slug } }).pipe(Effect.flip))._tag).toBe("AiAgentNotFound")
    }))

  it.effect("are created from a wizard draft: its fields fill the defaults, its tasks and tools come along, it is gone", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const toolFields = (name: string) =>
        ({
          name,
          description: "Looks an order up",
          inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
          method: "GET",
          url: "https://api.example.com/orders",
          headers: {},
          query: {},
          body: null,
          timeoutSeconds: 10,
          maxResponseBytes: 65_536,
          allowedDomains: []
        }) as never
      const shared = yield* client.workspaceTools.create({ payload: toolFields(`lookup_${count}`) })
      const task = (title: string) => ({ title, goal: `Do ${title}`, successCriteria: [`${title} done`] })
      const fields = (more: Record<string, unknown>) =>
        ({
          step: "review",
          name: "Orders",
          description: "Helps with orders",
          proposedSlug: null,
          instructions: "Be brief.",
          tasks: [task("Find the order"), task("find the ORDER"), task("Explain the delay")],
          tools: [
            { kind: "builtin", name: "remember" },
            { kind: "workspace", workspaceToolId: shared.id },
            { kind: "builtin", name: "remember" }
          ],
          modelSettings: null,
          answers: {},
          ...more
        }) as never
      const draft = yield* client.aiAgentDrafts.create({ payload: fields({}) })
      const slug = slugOf("from-draft")
      const created = yield* client.aiAgents.create({
        payload: agent({ slug, name: "Orders", description: "Given here", fromDraft: draft.id })
      })
      // The request's own fields win; the draft fills the defaults.
      expect(created).toMatchObject({ description: "Given here", instructions: "Be brief." })
      const tasks = yield* client.aiAgentTasks.list({ path: { slug }, urlParams: {} })
      expect(tasks.items.map((t) => [t.position, t.title])).toEqual([[0, "Find the order"], [1, "Explain the delay"]])
      const tools = yield* client.aiAgentTools.list({ path: { slug }, urlParams: {} })
      expect(tools.items.map((t) => [t.name, t.config.kind]).sort()).toEqual(
        [[shared.name, "workspace"], ["remember", "builtin"]].sort()
      )
      const gone = yield* client.aiAgentDrafts.get({ path: { id: draft.id } }).pipe(Effect.flip)
      expect(gone._tag).toBe("AiAgentDraftNotFound")
      // The draft is spent: a second create from it is a 404 and makes no agent.
      const again = yield* client.aiAgents.create({
        payload: agent({ slug: slugOf("again"), name: "Again", fromDraft: draft.id })
      }).pipe(Effect.flip)
      expect(again._tag).toBe("AiAgentDraftNotFound")

      // A draft naming a shared tool deleted since: a 400 naming it; no agent, the draft kept.
      const other = yield* client.workspaceTools.create({ payload: toolFields(`gone_${count}`) })
      const stale = yield* client.aiAgentDrafts.create({
        payload: fields({ tools: [{ kind: "workspace", workspaceToolId: other.id }] })
      })
      yield* client.workspaceTools.delete({ path: { tool_id: other.id }, urlParams: { force: false } })
      const staleSlug = slugOf("stale")
      const refused = yield* client.aiAgents.create({
        payload: agent({ slug: staleSlug, name: "Stale", fromDraft: stale.id })
      }).pipe(Effect.flip)
      expect(refused).toMatchObject({ _tag: "ValidationFailed", fields: ["fromDraft.tools[0]"] })
      expect((yield* client.aiAgents.get({ path: { slug: staleSlug } }).pipe(Effect.flip))._tag).toBe(
        "AiAgentNotFound"
      )
      expect((yield* client.aiAgentDrafts.get({ path: { id: stale.id } })).id).toBe(stale.id)
    }))

  it.effect("the draft snapshot keeps a tool's snake_case input properties as written", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const slug = slugOf("snake")
      const created = yield* client.aiAgents.create({ payload: agent({ slug, name: "Snake" }) })
      const inputSchema = {
        type: "object",
        properties: { order_id: { type: "string" }, customer_ref: { type: "string" } },
        required: ["order_id"]
      }
      yield* client.aiAgentTools.create({
        path: { slug },
        headers: {},
        payload: Schema.decodeUnknownSync(AiAgentToolCreate)({
          name: "order_lookup",
          description: "Looks an order up",
          config: {
            kind: "http",
            inputSchema,
            method: "GET",
            url: "https://api.example.com/orders/{{input.order_id}}"
          }
        })
      })
      const snapshot = yield* Effect.gen(function*() {
        const found = yield* (yield* AiAgentRepo).findById(created.workspaceId, created.id)
        return yield* (yield* AgentSnapshots).draft(Option.getOrThrow(found))
      }).pipe(Effect.provide(Layer.mergeAll(AiAgentRepo.Default, AgentSnapshots.Default)))
      const tool = snapshot.snapshot.tools[0]!
      expect(tool.config).toMatchObject({ kind: "http", inputSchema })
    }))
})
