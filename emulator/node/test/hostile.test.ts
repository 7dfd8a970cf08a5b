/**
 * The hostile suite: a fixed-seed run of bombs against a real server over
 * HTTP (emulator/testing/hostile-requests.ts lists them). Every answer must be a 2xx or a 4xx
 * with the real error body, never a 5xx, and no refused request may change
 * the data. Times are reported by `npm run fuzz`, never asserted here.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startRingside, type RingsideServer } from '../server.ts'
import { hostileRequests, runHostile } from '../../testing/hostile-requests.ts'
import { freePortPair } from './support.ts'

/** Fixed, so a failure reproduces; `npm run fuzz -- --seed N` tries others. */
const SEED = 19
const REQUESTS = 800

let server: RingsideServer
let commits = 0

beforeAll(async () => {
  server = await startRingside({ port: await freePortPair(), data: null, pages: 'none' })
  server.service.db.onChange(() => commits++)
})

afterAll(async () => {
  await server?.close()
})

test(`${REQUESTS} hostile requests (seed ${SEED}): no 5xx, the real error body on every 4xx, nothing changed by a refusal`, { timeout: 60_000 }, async () => {
  const requests = hostileRequests(SEED, REQUESTS)
  // Every kind of bomb comes up in the sample.
  expect(new Set(requests.map((r) => r.kind.split(':')[0])).size).toBeGreaterThanOrEqual(10)
  const report = await runHostile(server.port, requests, () => commits)
  expect(report.problems).toEqual([])
  expect(report.changedOnRefusal).toEqual([])
  expect(report.requests).toBe(REQUESTS)
})
