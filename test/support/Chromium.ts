/**
 * Debian's Chromium driven by playwright-core, for the tests that need a real
 * browser (the web chat widget): headless, in a fresh profile that is removed
 * afterwards. A missing Chromium fails the test with how to install it; it is
 * never skipped.
 */
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { chromium } from "playwright-core"

/** Where Debian installs Chromium. */
export const CHROMIUM = "/usr/bin/chromium"

/** Options known to start Chromium headless in a container. */
const args = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync"
]

/** A headless Chromium with a fresh profile, closed (and its profile removed) with the scope. */
export const chromiumContext = Effect.acquireRelease(
  Effect.promise(async () => {
    if (!Fs.existsSync(CHROMIUM)) {
      throw new Error(
        `The browser tests need Chromium at ${CHROMIUM}: apt-get install chromium fonts-liberation (npm test installs them when it runs as root).`
      )
    }
    const profile = Fs.mkdtempSync(Path.join(Os.tmpdir(), "parley-chromium-"))
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args,
      viewport: { width: 1000, height: 700 }
    })
    return { context, profile }
  }),
  ({ context, profile }) =>
    Effect.promise(async () => {
      await context.close()
      Fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5 })
    })
).pipe(Effect.map(({ context }) => context))
