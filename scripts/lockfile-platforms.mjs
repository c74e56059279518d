// The npm registry this project is built against serves only this machine's
// platform packages, so `npm install` leaves other platforms' optional
// binaries (rollup, esbuild, msgpackr-extract, ...) out of package-lock.json,
// and `npm ci` then refuses the lock as out of sync. This adds an entry for
// every optional dependency a locked package declares but the lock lacks:
// version and `optional: true`, which is all `npm ci` needs to skip them
// (a platform package that cannot be fetched is an optional failure).
// Run after changing dependencies: node scripts/lockfile-platforms.mjs
import fs from "node:fs"

const file = new URL("../package-lock.json", import.meta.url)
const lock = JSON.parse(fs.readFileSync(file, "utf8"))
const packages = lock.packages
let added = 0
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${path}/node_modules/${name}`
    const hoisted = `node_modules/${name}`
    if (packages[nested] || packages[hoisted]) continue
    const version = String(range).replace(/^[\^~=v]+/, "")
    packages[hoisted] = { version, ...(entry.dev ? { dev: true } : {}), optional: true }
    added++
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b)))
)
fs.writeFileSync(file, JSON.stringify(lock, null, 2) + "\n")
console.log(`package-lock.json: ${added} optional platform packages recorded`)
