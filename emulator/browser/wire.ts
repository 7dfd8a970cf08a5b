/**
 * The messages between a page and the CRM host (the SharedWorker that holds
 * the origin's one database), over the MessagePort of the worker connection.
 * Requests and responses travel as plain data with their bodies as
 * transferable ArrayBuffers.
 */
import type { SeedOptions } from '../core/data/seed.ts'

export interface WireRequest {
  url: string
  method: string
  headers: Array<[string, string]>
  body: ArrayBuffer | null
}

export interface WireResponse {
  status: number
  statusText: string
  headers: Array<[string, string]>
  body: ArrayBuffer | null
}

/** Page → host. */
export type ToHost =
  /** First message of a page: the seed options apply if this page is the one that creates the database. */
  | { type: 'hello'; seedOptions?: SeedOptions }
  | { type: 'request'; id: number; request: WireRequest }
  /** The page is going away (pagehide): stop telling it about changes. */
  | { type: 'bye' }

/** Host → page. */
export type FromHost =
  | { type: 'ready'; restored: boolean; problem?: string }
  /** The database is held by another copy of the host (another build's tab); the host waits for it. */
  | { type: 'waiting'; message: string }
  | { type: 'failed'; message: string }
  | { type: 'response'; id: number; response: WireResponse }
  /** A write committed (and saved) by any page of the origin. */
  | { type: 'change'; tables: string[] }

/** Statuses whose responses have no body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304])

export async function toWireRequest(request: Request): Promise<WireRequest> {
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD'
  return {
    url: request.url,
    method: request.method,
    headers: [...request.headers],
    body: hasBody ? await request.arrayBuffer() : null,
  }
}

export function fromWireRequest(wire: WireRequest): Request {
  return new Request(wire.url, { method: wire.method, headers: wire.headers, body: wire.body })
}

export async function toWireResponse(response: Response): Promise<WireResponse> {
  return {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers],
    body: NULL_BODY.has(response.status) ? null : await response.arrayBuffer(),
  }
}

export function fromWireResponse(wire: WireResponse): Response {
  return new Response(NULL_BODY.has(wire.status) ? null : wire.body, { status: wire.status, statusText: wire.statusText, headers: wire.headers })
}

/** The buffers of a message, to transfer rather than copy. */
export function transferables(message: { body: ArrayBuffer | null }): Transferable[] {
  return message.body ? [message.body] : []
}
