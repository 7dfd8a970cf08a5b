/**
 * Helpers for the contract tests of the object, settings and admin
 * endpoints, on top of the shared request helpers of timeline/testing.ts.
 */
import { expect } from 'vitest'
import type { CrmService } from '../service.ts'
import { body, call, privateApp, type Credential } from '../timeline/testing.ts'

export interface Client {
  /** Send with the private-app token (or `auth`); the raw response. */
  req(method: string, path: string, json?: unknown, auth?: Credential): Promise<Response>
  /** Send and assert the status (200 by default); the parsed body (undefined for 204). */
  ok(method: string, path: string, json?: unknown, status?: number, auth?: Credential): Promise<any>
}

export function client(service: CrmService): Client {
  const req = (method: string, path: string, json?: unknown, auth: Credential = privateApp) =>
    call(service, method, path, { auth, ...(json !== undefined && { json }) })
  return {
    req,
    async ok(method, path, json, status = 200, auth) {
      const response = await req(method, path, json, auth)
      const text = await response.clone().text()
      expect(response.status, `${method} ${path}: ${text}`).toBe(status)
      return response.status === 204 ? undefined : body(response)
    },
  }
}

/** The database's tables as one string, to compare before and after a failed request. */
export function tablesOf(service: CrmService): string {
  return JSON.stringify(service.db.snapshot().tables)
}

/** A ticket's required properties plus `extra`. */
export function ticket(extra: Record<string, unknown> = {}): { properties: Record<string, unknown> } {
  return { properties: { subject: 'Printer on fire', hs_pipeline_stage: '1', ...extra } }
}

/** An `associations` item of a create body. */
export function assoc(id: string, associationTypeId: number) {
  return { to: { id }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId }] }
}

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/** The `errors[]` of an error body returned by expectError. */
export function details(error: object): Array<{ message: string; code?: string; context?: Record<string, string[]> }> {
  return (error as { errors?: Array<{ message: string; code?: string; context?: Record<string, string[]> }> }).errors ?? []
}
