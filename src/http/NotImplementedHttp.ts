/**
 * Handlers for the routes whose area is not built yet: each answers a typed
 * 501 that names its route, so progress is visible and nothing pretends.
 */
import { HttpApiBuilder } from "@effect/platform"
import type { HttpApi, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Effect, type Layer } from "effect"
import { NotImplemented } from "../domain/HttpErrors.js"
import { Api } from "./Api.js"

/** The name of a group of the contract. */
export type GroupName = typeof Api extends HttpApi.HttpApi<any, infer Groups, any, any> ?
  HttpApiGroup.HttpApiGroup.Name<Groups>
  : never

/** `METHOD /path/{param}`: how a route is named in errors and notes. */
export const routeName = (endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps): string =>
  `${endpoint.method} ${endpoint.path.replace(/:(\w+)\??/g, "{$1}")}`

/** Every endpoint of a group answers 501 `NotImplemented` naming its route. */
export const notImplementedGroup = <const Name extends GroupName>(
  group: Name
): Layer.Layer<HttpApiGroup.ApiGroup<"parley", Name>> =>
  HttpApiBuilder.group(Api, group, (handlers: any) => {
    const endpoints = Object.values(Api.groups[group]!.endpoints) as ReadonlyArray<
      HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
    >
    return endpoints.reduce(
      (result, endpoint) =>
        result.handle(endpoint.name, () => Effect.fail(NotImplemented.forRoute(routeName(endpoint)))),
      handlers
    )
  }) as any
