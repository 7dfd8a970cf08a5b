/**
 * Test support for the tests that drive the service with the official
 * client, @hubspot/api-client 14.x: it sends every request through the global
 * `fetch`, which is pointed at a fresh test service for each test.
 */
import { Client } from '@hubspot/api-client'
import { afterEach, beforeEach, vi } from 'vitest'
import { ACCOUNT } from '../http/auth.ts'
import { BASE_URL, createTestService, type TestService } from '../timeline/testing.ts'

/** Call in a test file: each test gets a fresh service behind `fetch`; returns a getter for it. */
export function useServiceBehindFetch(): () => TestService {
  let api: TestService
  beforeEach(() => {
    api = createTestService()
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => api.handle(new Request(input, init)))
  })
  afterEach(() => {
    vi.unstubAllGlobals()
  })
  return () => api
}

/** The official client with the private-app token, at the test service. */
export function officialClient(): Client {
  return new Client({ basePath: BASE_URL, accessToken: ACCOUNT.privateAppToken })
}
