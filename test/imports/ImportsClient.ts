/** Helpers for import tests: read the shared corpus, call the import routes as a client would. */
import { HttpClientRequest } from "@effect/platform"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { as, type TestAccount } from "../support/Accounts.js"
import { exchange } from "../support/Http.js"

export const corpus = (path: string) => new URL(`../../../shared/corpus/${path}`, import.meta.url).pathname

/** Every file under a corpus folder, by path relative to it. */
export const corpusFiles = (folder: string): Record<string, string> => {
  const root = corpus(folder)
  const walk = (dir: string): Array<[string, string]> =>
    readdirSync(dir).flatMap((name) => {
      const path = `${dir}/${name}`
      return statSync(path).isDirectory() ? walk(path) : [[path.slice(root.length + 1), readFileSync(path, "utf8")]]
    })
  return Object.fromEntries(walk(root.replace(/\/$/, "")))
}

export const postJson = (account: TestAccount, url: string, body: unknown) =>
  exchange(as(HttpClientRequest.post(url).pipe(HttpClientRequest.bodyUnsafeJson(body)), account))

export const getJson = (account: TestAccount, url: string) => exchange(as(HttpClientRequest.get(url), account))

export const newTarget = (name: string) => ({ kind: "new", name })
