/**
 * What the calling controller needs from its surroundings: the CallingHost's
 * methods (a fake implements just these in tests), the API client, and the
 * account it calls for.
 */
import type { CallingHost } from '../../../shared/protocol/index.ts'
import { ACCOUNT } from '../../../shared/crm/account.ts'
import type { RequestOptions } from '../../lib/api-client.ts'
import type { ObjectType } from '../../lib/crm-types.ts'
import type { RecordRef } from './calling-types.ts'

/** The CallingHost methods the controller uses. */
export type HostPort = Pick<
  CallingHost,
  | 'on'
  | 'dialNumber'
  | 'createEngagementSucceeded'
  | 'engagementCreated'
  | 'createEngagementFailed'
  | 'updateEngagementSucceeded'
  | 'updateEngagementFailed'
  | 'callerIdMatchSucceeded'
  | 'callerIdMatchFailed'
  | 'navigateToRecordFailed'
  | 'finalizeEngagementSucceeded'
  | 'finalizeEngagementFailed'
  | 'publishToChannelSucceeded'
  | 'publishToChannelFailed'
  | 'setWidgetUrlFailed'
  | 'visibilityChanged'
  | 'resize'
  | 'setSrc'
>

/** The API client's shape (lib/api-client.ts `api`). */
export interface ApiPort {
  get<T = unknown>(path: string, options?: RequestOptions): Promise<T>
  post<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<T>
  put<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<T>
  patch<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<T>
}

/**
 * The tag on every API request the calling controller makes (RequestOptions.tag): the widget
 * message it acts on, as received (the same object as its traffic entry's message). The
 * inspector records the tagged requests and links each to its message.
 */
export class CallingCause {
  constructor(readonly message: unknown) {}
}

/** The API port with every request tagged with `cause`. */
export function causedApi(api: ApiPort, cause: CallingCause): ApiPort {
  return {
    get: <T>(path: string, options?: RequestOptions) => api.get<T>(path, { ...options, tag: cause }),
    post: <T>(path: string, body?: unknown, options?: RequestOptions) => api.post<T>(path, body, { ...options, tag: cause }),
    put: <T>(path: string, body?: unknown, options?: RequestOptions) => api.put<T>(path, body, { ...options, tag: cause }),
    patch: <T>(path: string, body?: unknown, options?: RequestOptions) => api.patch<T>(path, body, { ...options, tag: cause }),
  }
}

export interface HarnessAccount {
  portalId: number
  userId: number
  ownerId: number | string
}

/** The emulator's account, as DIAL_NUMBER and caller-ID matches name it. */
export const HARNESS_ACCOUNT: HarnessAccount = { portalId: ACCOUNT.hubId, userId: ACCOUNT.userId, ownerId: ACCOUNT.ownerId }

/** A record a call is made from or matched to. */
export type CallRecord = RecordRef & { objectType: ObjectType }

/** A CRM object as the API returns it. */
export interface SimpleObject {
  id: string
  properties: Record<string, string | null | undefined>
  associations?: Record<string, { results?: Array<{ id: string; type?: string }> }>
}

/** A positive integer id from a number or numeric string. */
export function positiveId(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value
  if (typeof value === 'string' && /^\d+$/.test(value) && Number(value) > 0) return Number(value)
  return undefined
}
