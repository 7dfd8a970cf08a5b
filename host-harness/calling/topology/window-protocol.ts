/**
 * The messages between Ringside's record pages and its calling window, over a
 * BroadcastChannel of the harness's origin. A BroadcastChannel only reaches
 * documents of the same origin, so only harness pages can post here; every
 * message is still parsed (a stale tab may run an older build) and anything
 * else is dropped.
 */
import { z } from 'zod'
import { LABEL_PROPERTIES } from '../../lib/crm-types.ts'

export const WINDOW_CHANNEL_NAME = 'ringside:calling-window'

/**
 * Web Locks of the harness's origin (navigator.locks: every tab and window of the origin shares them).
 * A calling window page holds WINDOW_LOCK (shared) from the moment it announces itself until it goes
 * away; a record page opens a calling window by itself only while it holds OPENING_LOCK (exclusive),
 * and when no page holds WINDOW_LOCK.
 */
export const WINDOW_LOCK = 'ringside:calling-window:open'
export const OPENING_LOCK = 'ringside:calling-window:opening'

/** What the links need of the origin's Web Locks (navigator.locks; tests pass a fake). */
export interface LockPort {
  request(name: string, options: { mode: 'exclusive' | 'shared' }, callback: () => Promise<void> | void): Promise<unknown>
  query(): Promise<{ held?: Array<{ name?: string }> }>
}

/** Longest string accepted in a channel message (numbers, ids, names). */
const MAX_TEXT = 512

const text = z.string().max(MAX_TEXT)

/**
 * The record's properties the calling window needs: those its label is made of.
 * A fixed shape, so no property name from the page becomes a key of a new object.
 */
const labelProperties = z.object(
  Object.fromEntries([...new Set(Object.values(LABEL_PROPERTIES).flat())].map((name) => [name, text.nullable().optional()])),
)

const dialInput = z.object({
  objectType: text,
  objectId: z.union([text, z.number()]),
  phoneNumber: text,
  phoneProperty: text,
  record: z.object({ id: text.optional(), properties: labelProperties.optional() }).nullable().optional(),
})

const callSummary = z.object({
  externalCallId: text,
  status: text,
  number: text,
  engagementId: z.number().optional(),
  /** hs_call_status as the API holds it, when read back */
  engagementStatus: text.nullable().optional(),
  record: z.object({ objectType: text, objectId: text, label: text.optional() }).optional(),
})

export const windowSummary = z.object({
  widgetName: text,
  handshake: text,
  /** null: the widget can dial; else why not */
  cannotDial: text.nullable(),
  /**
   * The widget is still starting (settings, its page, the handshake, INITIALIZED): cannotDial passes by
   * itself, and a dial handed over now is dialed once it can.
   */
  widgetStarting: z.boolean(),
  /** as the widget said (INITIALIZED, LOGGED_IN/OUT, USER_(UN)AVAILABLE); null: not yet */
  loggedIn: z.boolean().nullable(),
  available: z.boolean().nullable(),
  isReady: z.boolean(),
  call: callSummary.nullable(),
})
export type WindowSummary = z.infer<typeof windowSummary>

export const channelMessage = z.discriminatedUnion('kind', [
  /** page → window: who is there? (a page that just loaded) */
  z.object({ kind: z.literal('who') }),
  /** page → window: the user pressed Call on a record page; only the window `windowId` dials it */
  z.object({ kind: z.literal('dial'), requestId: text, windowId: text, input: dialInput }),
  /** window → pages: the window is open; its state (`windowId`: this window page, one per document) */
  z.object({ kind: z.literal('present'), windowId: text, summary: windowSummary }),
  /** window → pages: what became of a dial request */
  z.object({ kind: z.literal('dial-result'), requestId: text, ok: z.boolean(), reason: text.optional() }),
  /** window → pages: that calling window page closed */
  z.object({ kind: z.literal('gone'), windowId: text }),
])
export type ChannelMessage = z.infer<typeof channelMessage>
export type DialInput = z.infer<typeof dialInput>

/** The message, or null (logged by the caller) when it is not one of ours. */
export function parseChannelMessage(data: unknown): ChannelMessage | null {
  const parsed = channelMessage.safeParse(data)
  return parsed.success ? parsed.data : null
}

/** What the links need of a BroadcastChannel (tests pass a pair of Node's). */
export interface ChannelPort {
  postMessage(message: unknown): void
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void
  close(): void
}
