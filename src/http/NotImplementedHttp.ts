/**
 * Handlers for the routes whose area is not built yet: each answers a typed
 * 501 that names its route, so progress is visible and nothing pretends.
 */
import { HttpApiBuilder } from "@effect/platform"
import type { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpServerRequest, HttpServerResponse } from "@effect/platform"
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

/**
 * Routes of built groups that still answer 501, as `group.endpoint`: the
 * group's handlers answer them with `notImplemented`, docs/STATUS.md lists
 * them (`npm run docs:status`) and the authorization matrix expects the 501.
 */
export const notBuiltRoutes: ReadonlyArray<string> = []

/** The 501 of one unbuilt route. */
export const notImplemented = (endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps) => () =>
  Effect.fail(NotImplemented.forRoute(routeName(endpoint)))

/**
 * A check that holds before the area is built (a WebSocket route refusing a
 * plain GET): given the request and the route's 501, it answers one or the other.
 */
export type ProtocolCheck = (
  request: HttpServerRequest.HttpServerRequest,
  notBuilt: Effect.Effect<never, NotImplemented>
) => Effect.Effect<HttpServerResponse.HttpServerResponse, NotImplemented>

/** Every endpoint of a group answers 501 `NotImplemented` naming its route, after any protocol check it has. */
export const notImplementedGroup = <const Name extends GroupName>(
  group: Name,
  protocolChecks: Readonly<Record<string, ProtocolCheck>> = {}
): Layer.Layer<HttpApiGroup.ApiGroup<"parley", Name>> =>
  HttpApiBuilder.group(Api, group, (handlers: any) => {
    const endpoints = Object.values(Api.groups[group]!.endpoints) as ReadonlyArray<
      HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
    >
    return endpoints.reduce((result, endpoint) => {
      const check = protocolChecks[endpoint.name]
      return check === undefined
        ? result.handle(endpoint.name, notImplemented(endpoint))
        : result.handleRaw(
          endpoint.name,
          ({ request }: { request: HttpServerRequest.HttpServerRequest }) => check(request, notImplemented(endpoint)())
        )
    }, handlers)
  }) as any
