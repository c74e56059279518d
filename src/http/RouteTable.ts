/**
 * The method and path of every declared route, to tell an unknown path (404)
 * from a known path asked with the wrong method (405, with `Allow`).
 */
import { HttpApi } from "@effect/platform"
import type { HttpApiGroup } from "@effect/platform"
import * as FindMyWay from "find-my-way-ts"

/** One declared route. */
export interface Route {
  readonly method: string
  readonly path: string
  readonly group: string
  readonly name: string
}

/** Every route of an API, plus extra ones served beside it (docs, the OpenAPI document). */
export const routesOf = (
  api: HttpApi.HttpApi<string, HttpApiGroup.HttpApiGroup.Any, any, any>,
  extra: ReadonlyArray<Route> = []
): ReadonlyArray<Route> => {
  const routes: Array<Route> = [...extra]
  HttpApi.reflect(api as HttpApi.HttpApi.AnyWithProps, {
    onGroup() {},
    onEndpoint({ endpoint, group }) {
      routes.push({ method: endpoint.method, path: endpoint.path, group: group.identifier, name: endpoint.name })
    }
  })
  return routes
}

/**
 * A path matcher that matches exactly as the API's router does (find-my-way's defaults: a trailing slash and
 * doubled slashes are ignored, case too). A middleware that matched more strictly would let
 * `POST /v1/auth/login/` past a check (the media type, the turns gate) that the router then serves anyway.
 */
export const routeMatcher = <A>() => FindMyWay.make<A>()

/** The methods that the path of `url` accepts, from a table of routes. */
export const makeAllowedMethods = (routes: ReadonlyArray<Route>) => {
  const router = routeMatcher<string>()
  const methods = new Set<string>()
  for (const route of routes) {
    router.on(route.method, route.path as FindMyWay.PathInput, route.method)
    methods.add(route.method)
  }
  return (url: string): ReadonlyArray<string> => [...methods].filter((method) => router.find(method, url) !== undefined)
}
