/**
 * The web chat widget speaking to an AI agent (`data-agent-token`) in a real
 * browser (Debian's Chromium), against a real node: a shop's page on another
 * origin embeds the snippet the agent's `embed` route hands out; a visitor
 * opens the chat (the greeting from the snippet), sends a message by
 * keyboard; the first attempt's stream is lost on its way back, so the
 * widget sends the same key again and the server streams the stored turn:
 * the reply shows once, and the agent ran the turn once. The next message
 * continues the same conversation. A page of an origin the agent does not
 * allow is told so; after the token is rotated, the chat says it is gone.
 * The model is the embedded default's offline one.
 */
import { HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import type { Page } from "playwright-core"
import { AiAgentCreate } from "../../../src/domain/aiAgents/AiAgent.js"
import { signUp } from "../../support/Accounts.js"
import { chromiumContext } from "../../support/Chromium.js"
import { clientOf } from "../../support/Members.js"
import { shopPages } from "../../support/ShopPages.js"
import { testServer } from "../../support/TestServer.js"

const GREETING = "Hello! Ask me about your order."

/** The texts of the chat's messages, in order (the screen-reader prefix dropped). */
const messages = (page: Page) =>
  page.evaluate(() => {
    const root = (globalThis as any).document.querySelector("[data-parley-chat]")?.shadowRoot
    if (!root) return []
    return [...root.querySelectorAll(".msg")].map((node: any) => ({
      who: node.classList.contains("user") ? "user" : "bot",
      text: node.lastChild?.textContent ?? ""
    }))
  })

layer(testServer(), { excludeTestServices: true, timeout: "120 seconds" })(
  "the web chat widget for AI agents",
  (it) => {
    it.scoped(
      "streams an agent's replies, retries a lost stream with the same key, and continues the conversation",
      () =>
        Effect.gen(function*() {
          const address = (yield* HttpServer.HttpServer).address as HttpServer.TcpAddress
          const parley = `http://127.0.0.1:${address.port}`
          let snippet = ""
          const shopPort = yield* shopPages(() => snippet, parley)
          const shop = `http://localhost:${shopPort}`
          const elsewhere = `http://127.0.0.1:${shopPort}`

          const owner = yield* signUp()
          const client = yield* clientOf(owner)
          const slug = `widget-${process.pid}`
          yield* client.aiAgents.create({
            payload: Schema.decodeUnknownSync(AiAgentCreate)({
              slug,
              name: "Order help",
              instructions: "Help with orders.",
              conversation: { greeting: GREETING, suggestedPrompts: [] },
              embed: { allowedOrigins: [shop] }
            })
          })
          const release = yield* client.aiAgentReleases.publish({ path: { slug }, payload: {}, headers: {} })
          const publicToken = release.publicToken!
          const embed = yield* client.aiAgentReleases.getEmbed({ path: { slug } })
          expect(embed.snippet).toContain(`data-agent-token="${embed.tokenPlaceholder}"`)
          expect(embed.snippet).toContain(`data-greeting="${GREETING}"`)
          // The snippet as handed out, with the token put in and aimed at this node.
          snippet = embed.snippet.replace(embed.tokenPlaceholder, publicToken)
            .replace(/src="[^"]+\/embed\//, `src="${parley}/embed/`)

          const context = yield* chromiumContext
          const page = yield* Effect.promise(() => context.newPage())
          const pageErrors: Array<string> = []
          page.on("pageerror", (error) => pageErrors.push(error.message))
          // The first turn's stream breaks after its first piece of text: the widget must send the same key again,
          // with that piece's id as Last-Event-ID, and show the reply once.
          const sent: Array<{ key: string; body: any; url: string; lastEventId: string | undefined }> = []
          let firstPieceId: string | undefined
          yield* Effect.promise(() =>
            page.route("**/v1/public/ai-agents/*/turn*", async (route) => {
              const request = route.request()
              if (request.method() !== "POST") return route.continue()
              sent.push({
                key: request.headers()["idempotency-key"] ?? "none",
                body: request.postDataJSON(),
                url: request.url(),
                lastEventId: request.headers()["last-event-id"]
              })
              if (sent.length === 1) {
                const response = await route.fetch()
                const frames = (await response.text()).split("\n\n")
                const first = frames.findIndex((frame) => frame.includes("event: message.delta"))
                firstPieceId = /^id: (.+)$/m.exec(frames[first]!)?.[1]
                return route.fulfill({ response, body: frames.slice(0, first + 1).join("\n\n") + "\n\n" })
              }
              return route.continue()
            })
          )

          const first = yield* Effect.promise(async () => {
            await page.goto(`${shop}/`)
            await page.getByRole("button", { name: "Open chat: Order help" }).click()
            await page.getByText(GREETING).waitFor()
            await page.getByRole("textbox", { name: "Your message" }).fill("Where is my order?")
            await page.keyboard.press("Enter")
            // The reply is in once the input is usable again (nothing is typing).
            await page.getByText("Order help is typing").waitFor({ state: "detached" })
            await page.waitForFunction(() => {
              const root = (globalThis as any).document.querySelector("[data-parley-chat]").shadowRoot
              return root.querySelectorAll(".msg.bot").length >= 2
            })
            return messages(page)
          })
          expect(sent).toHaveLength(2)
          expect(sent[1]!.key).toBe(sent[0]!.key)
          expect(sent[0]!.lastEventId).toBeUndefined()
          expect(firstPieceId).toMatch(/^m\d+\.\d+$/)
          expect(sent[1]!.lastEventId).toBe(firstPieceId)
          expect(sent[0]!.url).toContain("?stream=true")
          expect(sent[0]!.body).toEqual({ message: "Where is my order?" })

          // The agent ran one turn; its reply is what the page shows, once.
          const conversations = yield* client.aiAgentConversations.listConversations({
            path: { slug },
            urlParams: {}
          })
          expect(conversations.items).toHaveLength(1)
          const conversationId = conversations.items[0]!.id
          const detail = yield* client.aiAgentConversations.getConversation({
            path: { slug: slug as never, convo_slug: conversationId }
          })
          expect(detail.turns).toBe(1)
          const reply = detail.messages.filter((m) => m.role === "assistant").map((m) => m.content)
          expect(reply).toHaveLength(1)
          expect(first).toEqual([
            { who: "bot", text: GREETING },
            { who: "user", text: "Where is my order?" },
            { who: "bot", text: reply[0] }
          ])

          // The next message continues the conversation.
          yield* Effect.promise(async () => {
            await page.getByRole("textbox", { name: "Your message" }).fill("Thanks!")
            await page.keyboard.press("Enter")
            await page.waitForFunction(() => {
              const root = (globalThis as any).document.querySelector("[data-parley-chat]").shadowRoot
              return root.querySelectorAll(".msg.bot").length >= 3 && !root.querySelector(".typing")
            })
          })
          expect(sent[2]!.body).toEqual({ message: "Thanks!", conversationId })
          const after = yield* client.aiAgentConversations.getConversation({
            path: { slug: slug as never, convo_slug: conversationId }
          })
          expect(after.turns).toBe(2)
          expect(pageErrors).toEqual([])

          // A page of an origin the agent does not allow is told so, with nothing to retry.
          yield* Effect.promise(async () => {
            const other = await context.newPage()
            const warnings: Array<string> = []
            other.on("console", (message) => {
              if (message.type() === "warning") warnings.push(message.text())
            })
            await other.goto(`${elsewhere}/`)
            await other.getByRole("button", { name: "Open chat: Order help" }).click()
            await other.getByRole("textbox", { name: "Your message" }).fill("hello")
            await other.keyboard.press("Enter")
            await other.getByRole("alert").getByText("This chat is not enabled on this website.").waitFor()
            expect(await other.getByRole("alert").getByRole("button", { name: "Retry" }).count()).toBe(0)
            expect(await other.getByRole("textbox", { name: "Your message" }).isDisabled()).toBe(true)
            expect(warnings.some((w) => /^Parley chat: this page's origin \(.*\) is not among the agent's/.test(w)))
              .toBe(true)
            await other.close()
          })

          // A rotated token stops at once: the chat says it is gone.
          yield* client.aiAgentReleases.rotatePublicToken({ path: { slug } })
          yield* Effect.promise(async () => {
            await page.getByRole("textbox", { name: "Your message" }).fill("Still there?")
            await page.keyboard.press("Enter")
            await page.getByRole("alert").getByText("This chat is no longer available.").waitFor()
            expect(await page.getByRole("textbox", { name: "Your message" }).isDisabled()).toBe(true)
          })
        }),
      180_000
    )
  }
)
