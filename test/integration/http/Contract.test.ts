/**
 * The contract against the seed: every seed route is served, nothing is
 * declared twice, the OpenAPI document passes a real validator, every
 * authenticated route states the access it needs, and no route answers a
 * request with a 500.
 */
import { HttpApi, HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { createConfig, lintFromString } from "@redocly/openapi-core"
import { Context, Effect } from "effect"
import * as Fs from "node:fs"
import { Api } from "../../../src/http/Api.js"
import { Authentication } from "../../../src/http/middleware/Authentication.js"
import { RequiredAccess } from "../../../src/http/RequiredAccess.js"
import { fixture } from "../../support/Fixtures.js"
import { exchange, postRaw } from "../../support/Http.js"
import { testServer } from "../../support/TestServer.js"

interface SeedRoute {
  readonly method: string
  readonly path: string
}

const seedRoutes: ReadonlyArray<SeedRoute> = JSON.parse(
  Fs.readFileSync(fixture("contract/seed-routes.json"), "utf8")
)

interface Declared {
  readonly method: string
  readonly path: string
  readonly operation: string
  readonly authenticated: boolean
  readonly access: string | undefined
}

const declared: Array<Declared> = []
HttpApi.reflect(Api, {
  onGroup() {},
  onEndpoint({ endpoint, group, middleware }) {
    declared.push({
      method: endpoint.method,
      path: endpoint.path.replace(/:(\w+)\??/g, "{$1}"),
      operation: `${group.identifier}.${endpoint.name}`,
      authenticated: [...middleware].some((tag) => tag.key === Authentication.key),
      access: Context.getOption(endpoint.annotations, RequiredAccess).pipe((option) =>
        option._tag === "Some" ? option.value : undefined
      )
    })
  }
})

/** A value each path parameter's schema accepts, so requests reach their handler. */
const sampleParam = (name: string): string =>
  ({
    slug: "support-bot",
    convo_slug: "0190c7a0-0000-7000-8000-000000000000",
    workspace_slug: "acme",
    chain_slug: "onboarding",
    vid: "1",
    version_id: "1",
    kind: "webhook",
    public_token: "agt_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
  } as Record<string, string>)[name] ?? "0190c7a0-0000-7000-8000-000000000000"

const concretePath = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => sampleParam(name))

layer(testServer(), { excludeTestServices: true })("the contract", (it) => {
  it.effect("serves every method and path of the seed in its OpenAPI document", () =>
    Effect.gen(function*() {
      const res = yield* exchange(HttpClientRequest.get("/openapi.json"))
      expect(res.status).toBe(200)
      const served = new Set(
        Object.entries(res.json.paths as Record<string, Record<string, unknown>>).flatMap(([path, operations]) =>
          Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`)
        )
      )
      const missing = seedRoutes.map((route) => `${route.method} ${route.path}`).filter((route) => !served.has(route))
      expect(missing).toEqual([])
      expect(seedRoutes).toHaveLength(133)
      expect(served.size).toBe(declared.length)
    }))

  it.effect("shows every route in the interactive reference at /docs", () =>
    Effect.gen(function*() {
      const res = yield* exchange(HttpClientRequest.get("/docs"))
      expect(res.status).toBe(200)
      expect(res.headers["content-type"]).toContain("text/html")
      // The page names the document it shows, relative to itself.
      const configured = /<script id="api-reference" type="application\/json" data-configuration="([^"]*)">/.exec(
        res.text
      )
      const { url } = JSON.parse(configured![1]!.replaceAll("&quot;", "\"").replaceAll("&amp;", "&")) as { url: string }
      expect(url).toBe("openapi.json")
      const document = yield* exchange(HttpClientRequest.get(new URL(url, "http://parley/docs").pathname))
      const spec = document.json as { paths: Record<string, Record<string, unknown>> }
      const shown = Object.values(spec.paths).reduce((count, operations) => count + Object.keys(operations).length, 0)
      expect(shown).toBe(declared.length)
    }))

  it("declares no method and path, and no operation, twice", () => {
    const routes = declared.map((route) => `${route.method} ${route.path}`)
    expect(routes.filter((route, i) => routes.indexOf(route) !== i)).toEqual([])
    const operations = declared.map((route) => route.operation)
    expect(operations.filter((operation, i) => operations.indexOf(operation) !== i)).toEqual([])
  })

  it.effect("passes the OpenAPI validator's recommended rules without an error", () =>
    Effect.gen(function*() {
      const res = yield* exchange(HttpClientRequest.get("/openapi.json"))
      const problems = yield* Effect.promise(async () =>
        lintFromString({ source: res.text, config: await createConfig({ extends: ["recommended"] }) })
      )
      const errors = problems.filter((problem) => problem.severity === "error")
      expect(errors.map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`))
        .toEqual([])
    }))

  it("states the access of every authenticated route and of no public one", () => {
    expect(declared.filter((route) => route.authenticated && route.access === undefined)).toEqual([])
    expect(declared.filter((route) => !route.authenticated && route.access !== undefined)).toEqual([])
    const seedAccess = { "GET /v1/workflows": "workflow.read", "POST /v1/workflows": "workflow.write" } as const
    for (const [route, access] of Object.entries(seedAccess)) {
      expect(declared.find((declared) => `${declared.method} ${declared.path}` === route)?.access).toBe(access)
    }
    const byRoute = (route: string) => declared.find((d) => `${d.method} ${d.path}` === route)?.access
    expect(byRoute("POST /v1/workflows/{id}/publish")).toBe("workflow.publish")
    expect(byRoute("POST /v1/runtime/workflows/{id}/sessions")).toBe("runtime.simulate")
    expect(byRoute("GET /v1/runtime/workflows/{id}/sessions")).toBe("workflow.read")
  })

  it.effect("answers every declared route, empty or malformed, with a typed JSON error and never a 500", () =>
    Effect.gen(function*() {
      const failures: Array<string> = []
      for (const route of declared) {
        const url = concretePath(route.path)
        const attempts = ["GET", "DELETE"].includes(route.method)
          ? [HttpClientRequest.make(route.method as "GET")(url)]
          : [
            HttpClientRequest.make(route.method as "POST")(url).pipe(
              HttpClientRequest.bodyText("{}", "application/json")
            ),
            HttpClientRequest.make(route.method as "POST")(url).pipe(
              HttpClientRequest.bodyText("", "application/json")
            ),
            postRaw(url, "[1,").pipe(HttpClientRequest.setMethod(route.method as "POST"))
          ]
        for (const attempt of attempts) {
          const res = yield* exchange(attempt)
          const upgrade = route.path.endsWith("/ws")
          const ok = upgrade
            ? res.status === 426
            : res.status < 500 || res.status === 501 || (route.path === "/health/ready" && res.status === 503)
          const shaped = res.status < 300 || route.path === "/metrics" || typeof res.json?._tag === "string"
          if (!ok || !shaped || res.headers["x-trace-id"] === undefined) {
            failures.push(`${route.method} ${url} -> ${res.status} ${res.text.slice(0, 120)}`)
          }
        }
      }
      expect(failures).toEqual([])
    }))
})
