/**
 * The web chat widget in a real browser (Debian's Chromium), against a real
 * Parley node and a real deployment made over HTTP: a shop's page on another
 * origin embeds the snippet the deployment handed out; a visitor opens the
 * chat by keyboard, answers a button question by clicking (the first attempt's
 * answer is lost on the way back, so the widget retries with the same key and
 * the turn happens once), reloads and finds the conversation again, answers a
 * text question by keyboard to the end, closes with Escape; the page's strict
 * CSP and hostile styles do not get in the way. The transcript
 * over the API holds each turn once. A page of another origin is refused, and
 * a revoked token is explained. A screenshot is saved. The calls of the test
 * itself (setting up, reading the transcript, revoking) go through the typed
 * client; the browser's are the widget's own.
 */
import { HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Redacted, Schema } from "effect"
import * as Fs from "node:fs"
import type { Page } from "playwright-core"
import { AssistantCreate } from "../../../src/domain/assistants/Assistant.js"
import { FlowReplace } from "../../../src/domain/assistants/Flow.js"
import { DeploymentCreate } from "../../../src/domain/deployments/Deployment.js"
import { RuntimeSessionId } from "../../../src/domain/runtime/RuntimeSession.js"
import { signUp, type TestAccount } from "../../support/Accounts.js"
import { chromiumContext } from "../../support/Chromium.js"
import { publicClientOf } from "../../support/Deployments.js"
import { clientOf } from "../../support/Members.js"
import { shopPages } from "../../support/ShopPages.js"
import { testServer } from "../../support/TestServer.js"

const at = (x: number) => ({ x, y: 0 })

/** A bookshop's helper: a topic by button, a name by text, a thank-you and goodbye. */
const helpFlow = {
  nodes: [
    { id: "start", type: "start", position: at(0), data: {} },
    { id: "greet", type: "message", position: at(100), data: { text: "Welcome to Parley Books." } },
    {
      id: "topic",
      type: "question",
      position: at(200),
      data: {
        prompt: "What can we help you with?",
        variable: "topic",
        validation: {
          kind: "choice",
          options: [{ value: "orders", label: "Orders" }, { value: "returns", label: "Returns" }]
        }
      }
    },
    {
      id: "name",
      type: "question",
      position: at(300),
      data: { prompt: "What is your name?", variable: "name", validation: { kind: "text" } }
    },
    {
      id: "thanks",
      type: "message",
      position: at(400),
      data: { text: "Thanks {{name}}, we will help with your {{topic}}.", delayMs: 300 }
    },
    { id: "bye", type: "end", position: at(500), data: { message: "Goodbye!", outcome: "helped" } },
    { id: "lost", type: "end", position: at(500), data: { outcome: "lost" } }
  ],
  edges: [
    { id: "e1", source: "start", target: "greet", kind: "next" },
    { id: "e2", source: "greet", target: "topic", kind: "next" },
    { id: "e3", source: "topic", target: "name", kind: "option", option: "orders" },
    { id: "e4", source: "topic", target: "name", kind: "option", option: "returns" },
    { id: "e5", source: "topic", target: "lost", kind: "fallback" },
    { id: "e6", source: "name", target: "thanks", kind: "answered" },
    { id: "e7", source: "name", target: "lost", kind: "fallback" },
    { id: "e8", source: "thanks", target: "bye", kind: "next" }
  ]
}

/** A new Assistant whose draft is `helpFlow`, deployed for pages of `origin`: the deployment, its token and snippet. */
const deployedHelper = (owner: TestAccount, origin: string, rateLimitPerMinute?: number) =>
  Effect.gen(function*() {
    const client = yield* clientOf(owner)
    const created = yield* client.assistants.create({ payload: AssistantCreate.make({ name: "Bookshop help" }) })
    yield* client.flows.replaceFlow({
      path: { agent_id: created.id },
      headers: {},
      payload: Schema.decodeUnknownSync(FlowReplace)(helpFlow)
    })
    const deployed = yield* client.deployments.createForAgent({
      path: { agent_id: created.id },
      payload: Schema.decodeSync(DeploymentCreate)({
        name: "website",
        allowedOrigins: [origin],
        ...(rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute })
      })
    })
    return {
      deployment: deployed.deployment,
      embedToken: Redacted.value(deployed.embedToken),
      snippet: Redacted.value(deployed.snippet)
    }
  })

/** What has the keyboard focus, inside the chat's shadow root or on the page: its label or text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const document = (globalThis as any).document
    const inChat = document.querySelector("[data-parley-chat]")?.shadowRoot?.activeElement
    const element = inChat ?? document.activeElement
    if (!element) return "nothing"
    const label = element.getAttribute("aria-label")
    return label ?? (element.id ? `#${element.id}` : element.textContent?.trim() ?? element.tagName)
  })

/** A public session's transcript, as the API tells the token's page (through the typed client). */
const publicTranscript = (token: string, origin: string, sessionId: string) =>
  Effect.flatMap(
    publicClientOf({ token, origin }),
    (client) => client.publicRuntime.getSession({ path: { id: RuntimeSessionId.make(sessionId) } })
  )

/**
 * A shop's pages embedding the snippet of a new deployment made for them, on
 * two origins of which the deployment allows the first (`shop`) only.
 */
const shopWithChat = (rateLimitPerMinute?: number) =>
  Effect.gen(function*() {
    const address = (yield* HttpServer.HttpServer).address as HttpServer.TcpAddress
    const parley = `http://127.0.0.1:${address.port}`
    let snippet = ""
    const shopPort = yield* shopPages(() => snippet, parley)
    const shop = `http://localhost:${shopPort}`
    const owner = yield* signUp()
    const deployed = yield* deployedHelper(owner, shop, rateLimitPerMinute)
    expect(deployed.snippet).toMatch(
      new RegExp(`^<script src="[^"]+/embed/v1/widget\\.js" data-token="${deployed.embedToken}" async></script>$`)
    )
    // The snippet as handed out, aimed at this node (the test server's public URL is not its address).
    snippet = deployed.snippet.replace(/src="[^"]+\/embed\//, `src="${parley}/embed/`)
      .replace("async>", "data-title=\"Bookshop help\" async>")
    return { deployed, owner, shop, elsewhere: `http://127.0.0.1:${shopPort}` }
  })

const screenshots = new URL("./__screenshots__/", import.meta.url)

layer(testServer(), { excludeTestServices: true, timeout: "120 seconds" })("the web chat widget in Chromium", (it) => {
  it.scoped(
    "a visitor holds a conversation through a deployment, by keyboard and by button, across a reload",
    () =>
      Effect.gen(function*() {
        const { deployed, elsewhere, owner, shop } = yield* shopWithChat()
        const token = deployed.embedToken

        const context = yield* chromiumContext
        const page = yield* Effect.promise(() => context.newPage())
        const pageErrors: Array<string> = []
        page.on("pageerror", (error) => pageErrors.push(error.message))

        // The first answer to the first turn is lost on its way back; the widget must retry with the same key.
        const turnKeys: Array<string> = []
        yield* Effect.promise(() =>
          page.route("**/v1/public/runtime/sessions/*/turns", async (route) => {
            const request = route.request()
            if (request.method() !== "POST") return route.continue()
            turnKeys.push(request.headers()["idempotency-key"] ?? "none")
            if (turnKeys.length === 1) {
              await route.fetch()
              return route.abort("connectionreset")
            }
            return route.continue()
          })
        )

        // Open the chat by keyboard: the page's link, then the launcher; Enter opens it and focuses the input.
        yield* Effect.promise(async () => {
          await page.goto(`${shop}/`)
          const launcher = page.getByRole("button", { name: "Open chat: Bookshop help" })
          await launcher.waitFor()
          await page.keyboard.press("Tab")
          expect(await focused(page)).toBe("Our catalogue")
          await page.keyboard.press("Tab")
          expect(await focused(page)).toBe("Open chat: Bookshop help")
          await page.keyboard.press("Enter")
          await page.getByText("What can we help you with?").waitFor()
          expect(await page.getByText("Welcome to Parley Books.").count()).toBe(1)
          expect(await focused(page)).toBe("#parley-input")
          expect(await page.getByRole("button", { name: "Close chat: Bookshop help" }).getAttribute("aria-expanded"))
            .toBe("true")
          expect(await page.getByRole("log", { name: "Conversation" }).getAttribute("aria-live")).toBe("polite")
          // The widget's own styles apply (under the page's CSP), the page's do not reach into it.
          expect(
            await page.getByRole("textbox", { name: "Your message" }).evaluate((input: any) => {
              const style = (globalThis as any).getComputedStyle(input)
              return [style.display, style.color, style.fontSize]
            })
          ).toEqual(["block", "rgb(27, 27, 31)", "15px"])
        })

        // A click on a button answers the choice; its answer is lost once, and the retry shows the reply.
        yield* Effect.promise(async () => {
          await page.getByRole("button", { name: "Returns" }).click()
          await page.getByText("What is your name?").waitFor()
          expect(await page.getByRole("button", { name: "Orders" }).count()).toBe(0)
        })
        expect(turnKeys).toHaveLength(2)
        expect(turnKeys[1]).toBe(turnKeys[0])

        // A reload finds the conversation again (the panel stays open): the opening, the choice, the question.
        const sessionId = yield* Effect.promise(async () => {
          await page.reload()
          await page.getByText("What is your name?").waitFor()
          const log = await page.getByRole("log", { name: "Conversation" }).innerText()
          expect(log.indexOf("Welcome to Parley Books.")).toBeGreaterThanOrEqual(0)
          expect(log.indexOf("Returns")).toBeGreaterThan(log.indexOf("What can we help you with?"))
          expect(log.indexOf("What is your name?")).toBeGreaterThan(log.indexOf("Returns"))
          expect(await page.getByRole("button", { name: "Orders" }).count()).toBe(0)
          return page.evaluate((): string | null => {
            const sessionStorage = (globalThis as any).sessionStorage
            const key = Object.keys(sessionStorage).find((name) => name.endsWith(".session"))
            return key === undefined ? null : sessionStorage.getItem(key)
          })
        })
        expect(sessionId).toMatch(/^[0-9a-f-]{36}$/)

        // By keyboard: Tab goes page link, launcher, close, conversation, input; Enter sends; the end is shown.
        yield* Effect.promise(async () => {
          const order: Array<string> = []
          for (let step = 0; step < 5; step++) {
            await page.keyboard.press("Tab")
            order.push(await focused(page))
          }
          expect(order).toEqual([
            "Our catalogue",
            "Close chat: Bookshop help",
            "Close chat",
            "Conversation",
            "#parley-input"
          ])
          await page.keyboard.type("Ada")
          await page.keyboard.press("Enter")
          await page.getByText("Thanks Ada, we will help with your returns.").waitFor()
          await page.getByText("Goodbye!").waitFor()
          await page.getByText("The conversation has ended.").waitFor()
          const log = await page.getByRole("log", { name: "Conversation" }).innerText()
          expect(log.indexOf("Goodbye!")).toBeGreaterThan(log.indexOf("Thanks Ada"))
          expect(log).not.toContain("is typing")
          expect(await page.getByRole("textbox", { name: "Your message" }).isDisabled()).toBe(true)
          expect(await focused(page)).toBe("Start a new conversation")
          Fs.mkdirSync(screenshots, { recursive: true })
          const path = new URL("widget.png", screenshots).pathname
          await page.screenshot({ path })
          console.log(`web chat screenshot: ${path}`)
          // Escape closes the chat and gives the focus back to the launcher.
          await page.keyboard.press("Escape")
          expect(await page.getByRole("dialog").count()).toBe(0)
          expect(await focused(page)).toBe("Open chat: Bookshop help")
        })
        expect(pageErrors).toEqual([])

        // The API's transcript: each turn once, the retried one included.
        const read = yield* publicTranscript(token, shop, sessionId!)
        expect(read).toMatchObject({ sessionId, status: "ended", ended: true, turn: 2 })
        const userEntries = read.transcript.flatMap((entry) => entry.role === "user" ? [entry] : [])
        expect(userEntries.map((entry) => [entry.turn, entry.input])).toEqual([
          [1, { payload: "returns" }],
          [2, { text: "Ada" }]
        ])
        expect(userEntries[0]!.idempotencyKey).toBe(turnKeys[0])

        // A page of an origin the deployment does not allow is told so.
        yield* Effect.promise(async () => {
          const other = await context.newPage()
          await other.goto(`${elsewhere}/`)
          const warnings: Array<string> = []
          other.on("console", (message) => {
            if (message.type() === "warning") warnings.push(message.text())
          })
          await other.getByRole("button", { name: "Open chat: Bookshop help" }).click()
          await other.getByRole("alert").getByText("This chat is not enabled on this website.").waitFor()
          // Nothing to retry, nothing to type, and the developer is told why in one line.
          expect(await other.getByRole("alert").getByRole("button", { name: "Retry" }).count()).toBe(0)
          expect(await other.getByRole("textbox", { name: "Your message" }).isDisabled()).toBe(true)
          expect(warnings.some((w) =>
            /^Parley chat: this page's origin \(.*\) is not among the deployment's allowed origins; 403/.test(w)
          ))
            .toBe(true)
          await other.close()
        })

        // Revoked, the token stops at once, and the widget says the chat is gone.
        const revoked = yield* (yield* clientOf(owner)).deployments.revoke({ path: { id: deployed.deployment.id } })
        expect(revoked.status).toBe("revoked")
        yield* Effect.promise(async () => {
          await page.getByRole("button", { name: "Open chat: Bookshop help" }).click()
          await page.getByRole("button", { name: "Start a new conversation" }).click()
          await page.getByRole("alert").getByText("This chat is no longer available.").waitFor()
          expect(await page.getByRole("alert").getByRole("button", { name: "Retry" }).count()).toBe(0)
          expect(await page.getByRole("textbox", { name: "Your message" }).isDisabled()).toBe(true)
        })
      }),
    180_000
  )

  it.scoped("a visitor over the deployment's rate limit is told to wait", () =>
    Effect.gen(function*() {
      const { shop } = yield* shopWithChat(2)
      const context = yield* chromiumContext
      const page = yield* Effect.promise(() => context.newPage())
      yield* Effect.promise(async () => {
        await page.goto(`${shop}/`)
        await page.getByRole("button", { name: "Open chat: Bookshop help" }).click()
        await page.getByRole("button", { name: "Orders" }).click()
        await page.getByText("What is your name?").waitFor()
        const input = page.getByRole("textbox", { name: "Your message" })
        await input.fill("Ada")
        await input.press("Enter")
        const alert = page.getByRole("alert")
        await alert.waitFor()
        expect(await alert.innerText()).toMatch(
          /^Too many messages right now\. Please wait \d+ seconds and try again\./
        )
        expect(await alert.getByRole("button", { name: "Retry" }).count()).toBe(1)
        expect(await input.isDisabled()).toBe(false)
      })
    }), 120_000)

  it.scoped(
    "a turn its node never answers (the node froze) is sent again with the same key after 30 s",
    () =>
      Effect.gen(function*() {
        const { shop } = yield* shopWithChat()
        const context = yield* chromiumContext
        const page = yield* Effect.promise(() => context.newPage())
        const turnKeys: Array<string> = []
        yield* Effect.promise(async () => {
          // The page's timers are the test's to move (time otherwise flows as usual).
          await page.clock.install()
          await page.route("**/v1/public/runtime/sessions/*/turns", async (route) => {
            const request = route.request()
            if (request.method() !== "POST") return route.continue()
            turnKeys.push(request.headers()["idempotency-key"] ?? "none")
            // The first attempt reached a node that then froze: no answer ever comes back.
            if (turnKeys.length === 1) return
            return route.continue()
          })
          await page.goto(`${shop}/`)
          await page.getByRole("button", { name: "Open chat: Bookshop help" }).click()
          await page.getByRole("button", { name: "Orders" }).click()
          await expect.poll(() => turnKeys.length).toBe(1)
          // A slow turn is not sent twice: nothing before the attempt's 30 s.
          await page.clock.fastForward(29_000)
          await new Promise((resolve) => setTimeout(resolve, 500))
          expect(turnKeys).toHaveLength(1)
          await page.clock.fastForward(2_000)
          await page.getByText("What is your name?").waitFor()
        })
        expect(turnKeys).toHaveLength(2)
        expect(turnKeys[1]).toBe(turnKeys[0])
      }),
    120_000
  )
})
