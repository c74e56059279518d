/**
 * Every way Parley starts a node runs it with the same V8 flags
 * (`NODE_FLAGS`, scripts/cluster/Nodes.ts): `npm start`, `npm run parley`, the
 * image's command, and the nodes `npm run cluster` and the tests start (which
 * use the constant itself).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { NODE_FLAGS } from "../../../scripts/cluster/Nodes.js"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const read = (file: string) => Fs.readFileSync(Path.join(root, file), "utf8")

/** The arguments of the image's `CMD` (its exec form). */
const imageCommand = (dockerfile: string): Array<string> => {
  const line = dockerfile.split("\n").find((text) => text.startsWith("CMD "))
  if (line === undefined) throw new Error("the Dockerfile has no CMD")
  return JSON.parse(line.slice("CMD ".length))
}

describe("node flags", () => {
  it("are the flags of a node, in the launchers and the image", () => {
    expect(NODE_FLAGS.length).toBeGreaterThan(0)
    for (const flag of NODE_FLAGS) expect(flag).toMatch(/^--[a-z0-9-]+=\d+$/)
  })

  it("npm start runs node with them before the start script", () => {
    const start: string = JSON.parse(read("package.json")).scripts.start
    expect(start).toBe(`node ${NODE_FLAGS.join(" ")} scripts/start.mjs`)
  })

  it("npm run parley (the CLI, serve among its commands) runs node with them before the entry point", () => {
    const parley: string = JSON.parse(read("package.json")).scripts.parley
    expect(parley).toBe(`node ${NODE_FLAGS.join(" ")} dist/main.js`)
  })

  it("the image runs node with them before its entry point", () => {
    const command = imageCommand(read("Dockerfile"))
    expect(command).toEqual(["node", ...NODE_FLAGS, "dist/main.js", "serve"])
  })

  it("a Dockerfile that dropped them would be caught", () => {
    const command = imageCommand(read("Dockerfile").replace(`"${NODE_FLAGS[0]}", `, ""))
    expect(command).not.toEqual(["node", ...NODE_FLAGS, "dist/main.js", "serve"])
  })
})
