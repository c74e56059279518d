/**
 * An AI agent's tasks over HTTP against the real database: CRUD in position
 * order with inserts and moves shifting the others, the by-id forms, unique
 * titles, required tools that must be the agent's, `If-Match` on the agent's
 * revision (every write bumps it; two writers from one revision: one wins),
 * ten concurrent creates ending as positions 0..9, hostile input, roles and
 * another workspace's agent.
 */
import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import type { AiAgentTaskId, AiAgentToolId } from "../../../src/domain/aiAgents/Ids.js"
import { AiAgentTaskCreate } from "../../../src/domain/aiAgents/Task.js"
import { AiAgentToolCreate } from "../../../src/domain/aiAgents/Tool.js"
import { as, signUp } from "../../support/Accounts.js"
import { exchange } from "../../support/Http.js"
import { clientOf, join } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { agentRow, revisionOf } from "./AgentRows.js"

/** A task body with the defaults filled, as the typed client wants it. */
const task = (title: string, more: Record<string, unknown> = {}) =>
  Schema.decodeUnknownSync(AiAgentTaskCreate)({
    title,
    goal: `Do ${title}`,
    successCriteria: [`${title} done`],
    ...more
  })
const rawTask = (title: string) => ({ title, goal: `Do ${title}`, successCriteria: [`${title} done`] })

const noHeaders = { headers: {} } as const

layer(testServer(), { excludeTestServices: true })("AI agent tasks", (it) => {
  it.effect("are created in order, inserted and moved with the others shifting, and deleted closing up", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const agent = yield* agentRow(owner.workspaceId)
      const path = { slug: agent.slug }
      const create = (body: typeof AiAgentTaskCreate.Type) =>
        client.aiAgentTasks.create({ path, payload: body, ...noHeaders })
      const a = yield* create(task("a"))
      const b = yield* create(task("b"))
      const c = yield* create(task("c"))
      expect([a.position, b.position, c.position]).toEqual([0, 1, 2])
      expect(a).toMatchObject({ status: "enabled", requiredToolIds: [], goal: "Do a", agentId: agent.id })
      const first = yield* create(task("first", { position: 0 }))
      expect(first.position).toBe(0)
      const titles = () =>
        Effect.map(client.aiAgentTasks.list({ path, urlParams: {} }), (page) => page.items.map((item) => item.title))
      expect(yield* titles()).toEqual(["first", "a", "b", "c"])
      const past = yield* create(task("past", { position: 5 })).pipe(Effect.flip)
      expect(past._tag).toBe("ValidationFailed")
      // Move c to the front, then first to the end.
      yield* client.aiAgentTasks.update({ path: { ...path, task_id: c.id }, payload: { position: 0 }, ...noHeaders })
      expect(yield* titles()).toEqual(["c", "first", "a", "b"])
      yield* client.aiAgentTasks.updateById({ path, payload: { id: first.id, position: 3 }, ...noHeaders })
      expect(yield* titles()).toEqual(["c", "a", "b", "first"])
      const tooFar = yield* client.aiAgentTasks.update({
        path: { ...path, task_id: c.id },
        payload: { position: 4 },
        ...noHeaders
      }).pipe(Effect.flip)
      expect(tooFar._tag).toBe("ValidationFailed")
      // Disable one and filter.
      yield* client.aiAgentTasks.update({
        path: { ...path, task_id: a.id },
        payload: { status: "disabled" },
        ...noHeaders
      })
      const disabled = yield* client.aiAgentTasks.list({ path, urlParams: { status: "disabled" } })
      expect(disabled.items.map((item) => item.title)).toEqual(["a"])
      expect(disabled.total).toBe(1)
      const paged = yield* client.aiAgentTasks.list({ path, urlParams: { limit: 2, offset: 1 } })
      expect(paged).toMatchObject({ total: 4, limit: 2, offset: 1 })
      expect(paged.items.map((item) => item.title)).toEqual(["a", "b"])
      // Delete from the middle: positions close up.
      yield* client.aiAgentTasks.delete({ path: { ...path, task_id: a.id }, ...noHeaders })
      yield* client.aiAgentTasks.deleteById({ path, urlParams: { id: c.id }, ...noHeaders })
      const left = yield* client.aiAgentTasks.list({ path, urlParams: {} })
      expect(left.items.map((item) => [item.title, item.position])).toEqual([["b", 0], ["first", 1]])
      const gone = yield* client.aiAgentTasks.get({ path: { ...path, task_id: a.id } }).pipe(Effect.flip)
      expect(gone._tag).toBe("AiAgentTaskNotFound")
      const goneById = yield* client.aiAgentTasks.deleteById({ path, urlParams: { id: a.id }, ...noHeaders })
        .pipe(Effect.flip)
      expect(goneById._tag).toBe("AiAgentTaskNotFound")
      expect(yield* client.aiAgentTasks.get({ path: { ...path, task_id: b.id } })).toMatchObject({ position: 0 })
    }))

  it.effect("titles are unique per agent, required tools must be the agent's, unknown fields are refused", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const agent = yield* agentRow(owner.workspaceId)
      const other = yield* agentRow(owner.workspaceId)
      const path = { slug: agent.slug }
      const a = yield* client.aiAgentTasks.create({ path, payload: task("same"), ...noHeaders })
      const taken = yield* client.aiAgentTasks.create({ path, payload: task("same"), ...noHeaders }).pipe(Effect.flip)
      expect(taken).toMatchObject({ _tag: "AiAgentTaskTitleTaken", title: "same" })
      // The same title on another agent is fine.
      yield* client.aiAgentTasks.create({ path: { slug: other.slug }, payload: task("same"), ...noHeaders })
      const b = yield* client.aiAgentTasks.create({ path, payload: task("other"), ...noHeaders })
      const renamed = yield* client.aiAgentTasks.update({
        path: { ...path, task_id: b.id },
        payload: { title: "same" },
        ...noHeaders
      }).pipe(Effect.flip)
      expect(renamed._tag).toBe("AiAgentTaskTitleTaken")
      const stranger = "0190c7a0-0000-7000-8000-00000000abcd" as AiAgentToolId
      const unknown = yield* client.aiAgentTasks.create({
        path,
        payload: task("needs", { requiredToolIds: [stranger] }),
        ...noHeaders
      }).pipe(Effect.flip)
      expect(unknown).toMatchObject({ _tag: "AiAgentTaskToolsUnknown", toolIds: [stranger] })
      const tool = yield* client.aiAgentTools.create({
        path,
        payload: Schema.decodeUnknownSync(AiAgentToolCreate)({
          name: "memo",
          config: { kind: "builtin", builtin: "remember" }
        }),
        ...noHeaders
      })
      const withTool = yield* client.aiAgentTasks.update({
        path: { ...path, task_id: a.id },
        payload: { requiredToolIds: [tool.id] },
        ...noHeaders
      })
      expect(withTool.requiredToolIds).toEqual([tool.id])
      // Another agent's tool is not this agent's.
      const foreignTool = yield* client.aiAgentTools.create({
        path: { slug: other.slug },
        payload: Schema.decodeUnknownSync(AiAgentToolCreate)({
          name: "memo",
          config: { kind: "builtin", builtin: "remember" }
        }),
        ...noHeaders
      })
      const notOurs = yield* client.aiAgentTasks.update({
        path: { ...path, task_id: a.id },
        payload: { requiredToolIds: [foreignTool.id] },
        ...noHeaders
      }).pipe(Effect.flip)
      expect(notOurs._tag).toBe("AiAgentTaskToolsUnknown")
      // Deleting the tool takes it out of the task.
      yield* client.aiAgentTools.delete({ path: { ...path, tid: tool.id }, ...noHeaders })
      expect((yield* client.aiAgentTasks.get({ path: { ...path, task_id: a.id } })).requiredToolIds).toEqual([])
      const excess = yield* exchange(as(
        HttpClientRequest.post(`/v1/ai-agents/${agent.slug}/tasks`).pipe(
          HttpClientRequest.bodyUnsafeJson({ ...rawTask("x"), colour: "red" })
        ),
        { token: owner.token, address: owner.address }
      ))
      expect(excess.status).toBe(400)
    }))

  it.effect("every write needs a current If-Match when sent and bumps the agent's revision; one of two racers wins", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const agent = yield* agentRow(owner.workspaceId)
      const path = { slug: agent.slug }
      expect(yield* revisionOf(agent.id)).toBe(1)
      const a = yield* client.aiAgentTasks.create({ path, payload: task("a"), headers: { "if-match": 1 as never } })
      expect(yield* revisionOf(agent.id)).toBe(2)
      const stale = yield* client.aiAgentTasks.create({ path, payload: task("b"), headers: { "if-match": 1 as never } })
        .pipe(Effect.flip)
      expect(stale).toMatchObject({ _tag: "RevisionConflict", expected: 1, actual: 2 })
      const staleDelete = yield* client.aiAgentTasks.delete({
        path: { ...path, task_id: a.id },
        headers: { "if-match": 1 as never }
      }).pipe(Effect.flip)
      expect(staleDelete._tag).toBe("RevisionConflict")
      expect(yield* revisionOf(agent.id)).toBe(2)
      // Two PATCHes from revision 2: exactly one wins.
      const racers = yield* Effect.all(
        ["x", "y"].map((title) =>
          Effect.either(client.aiAgentTasks.update({
            path: { ...path, task_id: a.id },
            payload: { title },
            headers: { "if-match": 2 as never }
          }))
        ),
        { concurrency: 2 }
      )
      expect(racers.filter((result) => result._tag === "Right")).toHaveLength(1)
      const loser = racers.find((result) => result._tag === "Left")
      expect(loser?._tag === "Left" && loser.left._tag).toBe("RevisionConflict")
      expect(yield* revisionOf(agent.id)).toBe(3)
      yield* client.aiAgentTasks.delete({ path: { ...path, task_id: a.id }, ...noHeaders })
      expect(yield* revisionOf(agent.id)).toBe(4)
      // A failed write changes nothing, the revision included.
      yield* client.aiAgentTasks.create({ path, payload: task("p", { position: 3 }), ...noHeaders }).pipe(Effect.flip)
      expect(yield* revisionOf(agent.id)).toBe(4)
    }))

  it.effect("ten concurrent creates end as positions 0..9, none twice", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const agent = yield* agentRow(owner.workspaceId)
      const path = { slug: agent.slug }
      yield* Effect.all(
        Array.from({ length: 10 }, (_, i) =>
          client.aiAgentTasks.create({
            path,
            payload: task(`t${i}`, i % 3 === 0 ? { position: 0 } : {}),
            ...noHeaders
          })),
        { concurrency: 10 }
      )
      const page = yield* client.aiAgentTasks.list({ path, urlParams: { limit: 100 } })
      expect(page.items.map((item) => item.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
      expect(new Set(page.items.map((item) => item.title)).size).toBe(10)
      expect(yield* revisionOf(agent.id)).toBe(11)
    }))

  it.effect("hostile input is a typed 400 and stores nothing", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agent = yield* agentRow(owner.workspaceId)
      const client = yield* clientOf(owner)
      const send = (body: string) =>
        exchange(as(
          HttpClientRequest.post(`/v1/ai-agents/${agent.slug}/tasks`).pipe(
            HttpClientRequest.bodyText(body, "application/json")
          ),
          { token: owner.token, address: owner.address }
        ))
      const nul = yield* send(JSON.stringify(rawTask("bad\u0000title")))
      expect(nul.status).toBe(400)
      const surrogate = yield* send(`{"title":"x\\ud800","goal":"g","successCriteria":["c"]}`)
      expect(surrogate.status).toBe(400)
      const deep = yield* send(`{"title":"deep","goal":"g","successCriteria":${"[".repeat(5000)}${"]".repeat(5000)}}`)
      expect(deep.status).toBe(400)
      const blank = yield* send(JSON.stringify(rawTask("   ")))
      expect(blank.status).toBe(400)
      const noCriteria = yield* send(JSON.stringify({ title: "t", goal: "g", successCriteria: [] }))
      expect(noCriteria.status).toBe(400)
      const badId = yield* exchange(as(
        HttpClientRequest.del(`/v1/ai-agents/${agent.slug}/tasks?id=%00`),
        { token: owner.token, address: owner.address }
      ))
      expect(badId.status).toBe(400)
      expect((yield* client.aiAgentTasks.list({ path: { slug: agent.slug }, urlParams: {} })).total).toBe(0)
      expect(yield* revisionOf(agent.id)).toBe(1)
    }))

  it.effect("roles: a viewer reads, an editor writes; another workspace sees no agent and no task", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agent = yield* agentRow(owner.workspaceId)
      const path = { slug: agent.slug }
      const mine = yield* (yield* clientOf(owner)).aiAgentTasks.create({ path, payload: task("mine"), ...noHeaders })
      const viewer = yield* clientOf(yield* join(owner, "viewer"), owner.workspaceId)
      expect((yield* viewer.aiAgentTasks.list({ path, urlParams: {} })).total).toBe(1)
      const refused = yield* viewer.aiAgentTasks.create({ path, payload: task("v"), ...noHeaders }).pipe(Effect.flip)
      expect(refused).toMatchObject({ _tag: "Forbidden", capability: "ai-agent.write" })
      const editor = yield* clientOf(yield* join(owner, "editor"), owner.workspaceId)
      yield* editor.aiAgentTasks.create({ path, payload: task("e"), ...noHeaders })
      const stranger = yield* signUp()
      const theirs = yield* clientOf(stranger)
      const theirAgent = yield* agentRow(stranger.workspaceId)
      const notFound = yield* theirs.aiAgentTasks.list({ path, urlParams: {} }).pipe(Effect.flip)
      expect(notFound._tag).toBe("AiAgentNotFound")
      const update = yield* theirs.aiAgentTasks.update({
        path: { ...path, task_id: mine.id },
        payload: { title: "stolen" },
        ...noHeaders
      }).pipe(Effect.flip)
      expect(update._tag).toBe("AiAgentNotFound")
      // Our task's id under their own agent is not found either, and nothing of ours changes.
      const crossed = yield* theirs.aiAgentTasks.updateById({
        path: { slug: theirAgent.slug },
        payload: { id: mine.id as AiAgentTaskId, title: "stolen" },
        ...noHeaders
      }).pipe(Effect.flip)
      expect(crossed._tag).toBe("AiAgentTaskNotFound")
      const deleted = yield* theirs.aiAgentTasks.deleteById({
        path: { slug: theirAgent.slug },
        urlParams: { id: mine.id },
        ...noHeaders
      }).pipe(Effect.flip)
      expect(deleted._tag).toBe("AiAgentTaskNotFound")
      expect(yield* (yield* clientOf(owner)).aiAgentTasks.get({ path: { ...path, task_id: mine.id } }))
        .toMatchObject({ title: "mine" })
    }))
})
