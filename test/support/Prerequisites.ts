/**
 * What the tests need from the machine, checked once before they run, with a
 * message that says how to get it: a PostgreSQL server (started here when it
 * is the machine's own cluster and merely stopped) and `promtool`.
 */
import { execFileSync, spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import { adminUrl, withAdmin } from "./TestDatabase.js"

const reachable = async () => {
  try {
    await withAdmin((client) => client.query("SELECT 1"))
    return true
  } catch {
    return false
  }
}

const startLocalCluster = () => {
  if (!Fs.existsSync("/etc/postgresql")) return
  for (const version of Fs.readdirSync("/etc/postgresql")) {
    spawnSync("pg_ctlcluster", ["--skip-systemctl-redirect", version, "main", "start"], { stdio: "ignore" })
  }
}

export const ensurePostgres = async () => {
  if (await reachable()) return
  startLocalCluster()
  for (let attempt = 0; attempt < 40; attempt++) {
    if (await reachable()) return
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(
    `The tests need PostgreSQL at ${adminUrl} (set PARLEY_TEST_PG_URL to use another). ` +
      "On Debian: apt-get install postgresql, then pg_ctlcluster <version> main start; or run bash .ci/run."
  )
}

export const ensurePromtool = () => {
  try {
    execFileSync("promtool", ["--version"], { stdio: "ignore" })
  } catch {
    throw new Error(
      "The metrics tests need promtool: apt-get install prometheus (npm test installs it when it runs as root)."
    )
  }
}
