/**
 * The handlers of a draft collection's routes (`collectionEndpoints` with
 * `draftWrite`: tasks, tools, guardrails, knowledge): each passes the
 * caller, the agent's slug, the item's id (from the path, or for the `ById`
 * forms from the body or the query), the body, `If-Match` and the request's
 * origin to the collection's service, which does the rest. Each handler
 * keeps the success and error types of the service's own method.
 */
import { Effect } from "effect"
import type { Origin } from "../../domain/identity/Origin.js"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import type { Principal } from "../../domain/identity/Principal.js"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import type { Revision } from "../../domain/Revision.js"

type Any = Effect.Effect<any, any, any>

/** What a draft collection's service offers its routes. */
export interface DraftCollection {
  readonly list: (principal: Principal, slug: string, params: any) => Any
  readonly get: (principal: Principal, slug: string, id: any) => Any
  readonly create: (
    principal: Principal,
    slug: string,
    input: any,
    ifMatch: Revision | undefined,
    origin: Origin
  ) => Any
  readonly update: (
    principal: Principal,
    slug: string,
    id: any,
    patch: any,
    ifMatch: Revision | undefined,
    origin: Origin
  ) => Any
  readonly delete: (principal: Principal, slug: string, id: any, ifMatch: Revision | undefined, origin: Origin) => Any
}

/** A method's effect, needing the caller (and the request's origin) besides what the method needs. */
type Handled<F> = F extends (...args: any) => Effect.Effect<infer A, infer E, infer R>
  ? Effect.Effect<A, E, R | CurrentPrincipal | CurrentOrigin>
  : never

type IdOf<S extends DraftCollection> = Parameters<S["get"]>[2]

interface Slugged {
  readonly slug: string
}

interface Conditional {
  readonly "if-match"?: Revision | undefined
}

/** The seven handlers of a draft collection; `idOf` reads the item's id from the item path. */
export const draftCollectionHandlers = <S extends DraftCollection, P extends Slugged>(
  service: S,
  idOf: (path: P) => IdOf<S>
) => {
  const caller = Effect.all([CurrentPrincipal, CurrentOrigin])
  return {
    list: ({ path, urlParams }: { readonly path: Slugged; readonly urlParams: Parameters<S["list"]>[2] }) =>
      Effect.flatMap(CurrentPrincipal, (principal) => service.list(principal, path.slug, urlParams)) as Handled<
        S["list"]
      >,
    create: ({ headers, path, payload }: {
      readonly headers: Conditional
      readonly path: Slugged
      readonly payload: Parameters<S["create"]>[2]
    }) =>
      Effect.flatMap(
        caller,
        ([principal, origin]) => service.create(principal, path.slug, payload, headers["if-match"], origin)
      ) as Handled<S["create"]>,
    get: ({ path }: { readonly path: P }) =>
      Effect.flatMap(CurrentPrincipal, (principal) => service.get(principal, path.slug, idOf(path))) as Handled<
        S["get"]
      >,
    update: ({ headers, path, payload }: {
      readonly headers: Conditional
      readonly path: P
      readonly payload: Parameters<S["update"]>[3]
    }) =>
      Effect.flatMap(
        caller,
        ([principal, origin]) => service.update(principal, path.slug, idOf(path), payload, headers["if-match"], origin)
      ) as Handled<
        S["update"]
      >,
    delete: ({ headers, path }: { readonly headers: Conditional; readonly path: P }) =>
      Effect.flatMap(
        caller,
        ([principal, origin]) => service.delete(principal, path.slug, idOf(path), headers["if-match"], origin)
      ) as Handled<S["delete"]>,
    updateById: ({ headers, path, payload: { id, ...patch } }: {
      readonly headers: Conditional
      readonly path: Slugged
      readonly payload: { readonly id: IdOf<S> } & Parameters<S["update"]>[3]
    }) =>
      Effect.flatMap(
        caller,
        ([principal, origin]) => service.update(principal, path.slug, id, patch, headers["if-match"], origin)
      ) as Handled<S["update"]>,
    deleteById: ({ headers, path, urlParams }: {
      readonly headers: Conditional
      readonly path: Slugged
      readonly urlParams: { readonly id: IdOf<S> }
    }) =>
      Effect.flatMap(
        caller,
        ([principal, origin]) => service.delete(principal, path.slug, urlParams.id, headers["if-match"], origin)
      ) as Handled<S["delete"]>
  }
}
