import { HOST_MESSAGES, WIDGET_METHODS } from './wire-catalogue.ts'

/**
 * The message pair timed by `npm run bench`: the host dials (DIAL_NUMBER) and
 * the widget's onDialNumber handler answers with outgoingCall
 * (OUTGOING_CALL_STARTED). The same payloads are used for our SDK, the npm
 * package and the raw postMessage echo, so only the code in between differs.
 */
function payloadOf<T extends { payload: Readonly<Record<string, unknown>> | undefined }>(
  cases: readonly T[],
  pick: (c: T) => boolean,
): Readonly<Record<string, unknown>> {
  const found = cases.find(pick)?.payload
  if (!found) throw new Error('bench payload missing from the wire catalogue')
  return found
}

export const BENCH_REQUEST_TYPE = 'DIAL_NUMBER'
export const BENCH_REPLY_TYPE = 'OUTGOING_CALL_STARTED'
export const BENCH_REQUEST_DATA = payloadOf(HOST_MESSAGES, (c) => c.type === BENCH_REQUEST_TYPE)
export const BENCH_REPLY_DATA = payloadOf(WIDGET_METHODS, (c) => c.type === BENCH_REPLY_TYPE)

/**
 * Sequential ping-pong: `send()` starts a round trip; the host's reply
 * listener calls `reply()`. Resolves with one duration (ms) per round trip.
 */
export interface RoundTripMeter {
  readonly done: Promise<number[]>
  reply(): void
}

export function startRoundTrips(count: number, send: () => void): RoundTripMeter {
  const samples = new Float64Array(count)
  let index = 0
  let started = 0
  let finish: (samples: number[]) => void = () => {}
  const done = new Promise<number[]>((resolve) => {
    finish = resolve
  })
  const meter: RoundTripMeter = {
    done,
    reply() {
      if (index >= count) return
      samples[index] = performance.now() - started
      index += 1
      if (index === count) {
        finish(Array.from(samples))
        return
      }
      started = performance.now()
      send()
    },
  }
  started = performance.now()
  send()
  return meter
}
