/**
 * The public lead form over HTTP against the real database: a lead is
 * stored and mailed to PARLEY_LEADS_TO; a filled honeypot is answered alike,
 * stored as spam and mailed to nobody; bad and hostile bodies are typed 400s
 * that store nothing; the per-address limit is one count for every node.
 */
import { HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Option, Schema } from "effect"
import { LeadSubmission } from "../../../src/domain/workspace/Lead.js"
import { DevOutbox } from "../../../src/providers/DevMailer.js"
import { freshAddress, freshEmail } from "../../support/Accounts.js"
import { exchange, postRaw } from "../../support/Http.js"
import { testServer } from "../../support/TestServer.js"
import { twoNodes } from "../../support/TwoNodes.js"
import { failureOf, typedCaller } from "../../support/TypedCaller.js"

const lead = (fields: Record<string, unknown> = {}) => ({
  kind: "demo",
  name: "Ada Lovelace",
  email: freshEmail("lead"),
  company: "Analytical Engines",
  message: "We would like a demo.",
  consent: true,
  ...fields
})

/** A lead through the typed client, from `address`. */
const submit = (body: Record<string, unknown>, address: string) =>
  Effect.flatMap(
    typedCaller({ address }),
    (client) => client.leads.submit({ payload: Schema.decodeUnknownSync(LeadSubmission)(body) })
  )

/** A raw lead, for bodies the typed client refuses to send. */
const submitRaw = (body: string, address: string) =>
  exchange(postRaw("/v1/leads", body).pipe(HttpClientRequest.setHeader("x-forwarded-for", address)))

const storedLeads = (email: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql<{ id: string; spam: boolean; honeypot: string | null; name: string; utm: unknown; mailedAt: Date | null }>`
      SELECT id, spam, honeypot, name, utm, mailed_at FROM leads WHERE email = ${email}`
  ).pipe(Effect.orDie)

layer(testServer({ PARLEY_LEADS_TO: "sales@example.com" }), { excludeTestServices: true })("leads", (it) => {
  it.effect("a lead is stored and mailed to the operator, its fields escaped", () =>
    Effect.gen(function*() {
      const body = lead({
        kind: "contact-sales",
        name: "Ada <b>Lovelace</b>",
        phone: "+44 20 7946 0958",
        marketingOptIn: true,
        utm: { source: "newsletter", campaign: "autumn" },
        pageUrl: "https://parley.example.com/pricing"
      })
      const accepted = yield* submit(body, freshAddress())
      expect(accepted.status).toBe("received")
      const [row] = yield* storedLeads(body.email as string)
      expect(row).toMatchObject({ id: accepted.leadId, spam: false, honeypot: null, name: "Ada <b>Lovelace</b>" })
      expect(row!.utm).toEqual({ source: "newsletter", campaign: "autumn" })
      expect(row!.mailedAt).not.toBeNull()
      const mail = Option.getOrThrow(
        yield* Effect.flatMap(DevOutbox, (outbox) => outbox.latest("sales@example.com", "lead"))
      )
      expect(mail.subject).toBe("New contact-sales request: Ada <b>Lovelace</b>, Analytical Engines")
      expect(mail.text).toContain(`Email: ${body.email}`)
      expect(mail.text).toContain("utm_campaign: autumn")
      expect(mail.html).toContain("Ada &lt;b&gt;Lovelace&lt;/b&gt;")
      expect(mail.html).not.toContain("<b>Lovelace")
    }))

  it.effect("a filled honeypot is answered like a success, stored as spam and mailed to nobody", () =>
    Effect.gen(function*() {
      const outbox = yield* DevOutbox
      const before = (yield* outbox.messages).length
      const body = lead({ website: "https://spam.example.com" })
      const answer = yield* submitRaw(JSON.stringify(body), freshAddress())
      const real = yield* submitRaw(JSON.stringify(lead()), freshAddress())
      expect(answer.status).toBe(202)
      expect(Object.keys(answer.json).sort()).toEqual(Object.keys(real.json).sort())
      expect(answer.json.status).toBe("received")
      const [row] = yield* storedLeads(body.email as string)
      expect(row).toMatchObject({ id: answer.json.leadId, spam: true, honeypot: "https://spam.example.com" })
      expect(row!.mailedAt).toBeNull()
      // The real lead was mailed; the spam was not.
      expect((yield* outbox.messages).length).toBe(before + 1)
      // A blank honeypot is a person's.
      const blank = lead({ website: "  " })
      yield* submit(blank, freshAddress())
      expect((yield* storedLeads(blank.email as string))[0]!.spam).toBe(false)
    }))

  it.effect("bad and hostile bodies are typed 400s (413 when huge) and store nothing", () =>
    Effect.gen(function*() {
      const email = freshEmail("bad")
      const cases: ReadonlyArray<readonly [string, string, number]> = [
        ["no email", JSON.stringify(lead({ email: undefined })), 400],
        ["bad email", JSON.stringify(lead({ email: "not-an-address" })), 400],
        ["no consent", JSON.stringify(lead({ email, consent: false })), 400],
        ["blank name", JSON.stringify(lead({ email, name: "   " })), 400],
        ["long name", JSON.stringify(lead({ email, name: "n".repeat(121) })), 400],
        ["long message", JSON.stringify(lead({ email, message: "m".repeat(5001) })), 400],
        ["bad kind", JSON.stringify(lead({ email, kind: "lunch" })), 400],
        ["wrong type", JSON.stringify(lead({ email, company: 42 })), 400],
        ["unknown field", JSON.stringify(lead({ email, admin: true })), 400],
        ["bad phone", JSON.stringify(lead({ email, phone: "call me" })), 400],
        ["javascript page", JSON.stringify(lead({ email, pageUrl: "javascript:alert(1)" })), 400],
        ["deep utm", JSON.stringify(lead({ email, utm: { source: { a: { b: { c: [[[[1]]]] } } } } })), 400],
        ["NUL", JSON.stringify(lead({ email, name: "Ada\u0000" })), 400],
        ["lone surrogate", JSON.stringify(lead({ email })).replace("Ada Lovelace", "Ada \\ud800"), 400],
        ["not JSON", "{\"kind\": ", 400],
        ["an array", "[]", 400],
        ["huge", JSON.stringify(lead({ email, message: "x".repeat(3_000_000) })), 413]
      ]
      for (const [name, body, status] of cases) {
        const answer = yield* submitRaw(body, freshAddress())
        expect(answer.status, name).toBe(status)
        expect(typeof answer.json._tag, name).toBe("string")
      }
      expect(yield* storedLeads(email)).toEqual([])
      // Invalid UTF-8 bytes.
      const bytes = yield* exchange(
        HttpClientRequest.post("/v1/leads").pipe(
          HttpClientRequest.setHeader("x-forwarded-for", freshAddress()),
          HttpClientRequest.bodyUint8Array(
            new Uint8Array([...new TextEncoder().encode("{\"kind\":\"demo\",\"name\":\"A"), 0xc3, 0x28, 0x22, 0x7d]),
            "application/json"
          )
        )
      )
      expect(bytes.status).toBe(400)
    }))

  it.effect("an address may send 5 leads an hour; the 6th is a 429 with Retry-After", () =>
    Effect.gen(function*() {
      const address = freshAddress()
      for (let i = 0; i < 5; i++) yield* submit(lead(), address)
      const refused = yield* submitRaw(JSON.stringify(lead()), address)
      expect(refused.status).toBe(429)
      expect(refused.json._tag).toBe("RateLimited")
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0)
      expect((yield* failureOf(submit(lead(), address)))._tag).toBe("RateLimited")
      // A spam submission counts too, and another address is not affected.
      expect((yield* submitRaw(JSON.stringify(lead({ website: "x" })), address)).status).toBe(429)
      yield* submit(lead(), freshAddress())
    }))
})

describe("leads on two nodes", () => {
  it.scopedLive(
    "the per-address limit is one count for both nodes; without PARLEY_LEADS_TO nothing is mailed",
    () =>
      Effect.gen(function*() {
        const { onA, onB } = yield* twoNodes
        const address = freshAddress()
        for (let i = 0; i < 5; i++) {
          const answer = yield* (i % 2 === 0 ? onA : onB)(submitRaw(JSON.stringify(lead()), address))
          expect(answer.status).toBe(202)
        }
        for (const node of [onA, onB]) {
          const refused = yield* node(submitRaw(JSON.stringify(lead()), address))
          expect(refused.status).toBe(429)
          expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0)
        }
        const stored = yield* onA(
          Effect.flatMap(
            SqlClient.SqlClient,
            (sql) =>
              sql<
                { n: string; mailed: string }
              >`SELECT count(*)::text AS n, count(mailed_at)::text AS mailed FROM leads`
          ).pipe(Effect.orDie)
        )
        expect(stored[0]).toEqual({ n: "5", mailed: "0" })
        expect((yield* onA(Effect.flatMap(DevOutbox, (outbox) => outbox.messages))).filter((m) => m.tag === "lead"))
          .toEqual([])
      }),
    120_000
  )
})
