/**
 * A `text/event-stream` answer from a stream of server-sent event frames
 * (`TurnStreamEvents.sseFrame`): not cached, and not buffered by proxies
 * that honour `X-Accel-Buffering`.
 */
import { HttpServerResponse } from "@effect/platform"
import { Stream } from "effect"

export const eventStream = <E>(frames: Stream.Stream<string, E>) =>
  HttpServerResponse.stream(Stream.encodeText(frames), {
    contentType: "text/event-stream; charset=utf-8",
    headers: { "cache-control": "no-cache", "x-accel-buffering": "no" }
  })
