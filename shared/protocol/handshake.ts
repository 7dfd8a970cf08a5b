/**
 * The handshake, both sides.
 *
 * Host: on every iframe load a SYNC (new messageId each time) goes to the iframe
 * every `intervalMs` (the real host: 100 ms) until a SYNC_ACK answers one of the
 * outstanding ids; no answer within `timeoutMs` of the first SYNC after a load fails
 * the handshake (locally: SYNC_ACK_FAILED is never put on the wire). A reload starts
 * over, and SYNC ids of an earlier load no longer count. The timers and ids are SyncLoop's
 * (sync-loop.ts); the messages are built here.
 *
 * Widget: the first valid SYNC from window.parent whose origin equals its `hostUrl`
 * (and is listed in `hostOrigins` when given) is answered at once with a SYNC_ACK
 * that copies it, same messageId, plus debugMode, version and the widget's origin.
 */
import { SDK_VERSION, validateMessage, type ReadyPayload, type SyncAckMessage, type SyncFields, type SyncMessage } from './catalogue.ts'
import type { SyncAckInfo } from './host-types.ts'
import { httpOrigin } from './origin.ts'
import { typeOf, type WireMessage } from './transport.ts'

export type { SyncAckFailedCause } from './host-types.ts'

/** `{type, messageId, hostUrl}` plus the SYNC fields: what SYNC carries and SYNC_ACK echoes. */
export function syncMessage(type: 'SYNC' | 'SYNC_ACK', messageId: string, hostUrl: string, f: SyncFields): WireMessage {
  const message: WireMessage = {
    type,
    messageId,
    hostUrl,
    portalId: f.portalId,
    userId: f.userId,
    ownerId: f.ownerId,
    iframeLocation: f.iframeLocation,
    usesCallingWindow: f.usesCallingWindow,
  }
  if (f.engagementId !== undefined) message.engagementId = f.engagementId
  return message
}

/** Host side: an acceptable SYNC_ACK-shaped message, for warming up the judgement at mount. */
export function warmUpAck(sync: SyncFields, widgetOrigin: string): WireMessage {
  const ack = syncMessage('SYNC_ACK', 'warm-up', window.location.origin, sync)
  Object.assign(ack, { debugMode: false, version: SDK_VERSION, iFrameUrl: widgetOrigin })
  return ack
}

const WARM_UP_HOST = 'https://warm-up.invalid'
const WARM_UP_SYNC = { type: 'SYNC', messageId: 'warm-up', hostUrl: WARM_UP_HOST, portalId: 0, userId: 0, ownerId: 0, iframeLocation: 'widget', usesCallingWindow: false }

/**
 * Widget side: answers one SYNC (thrown away) when the SDK object is built, so V8 compiles
 * the SYNC checks and the validator now, not between the host's first SYNC and our SYNC_ACK.
 */
export function warmUpSync(): void {
  answerSync(WARM_UP_SYNC, WARM_UP_HOST, null, false)
}

/** Host side: what the widget told us in its SYNC_ACK (fields it left out stay out). */
export function syncAckInfo(message: SyncAckMessage): SyncAckInfo {
  const info: SyncAckInfo = { message }
  if (message.version !== undefined) info.version = message.version
  if (message.debugMode !== undefined) info.debugMode = message.debugMode
  if (message.iFrameUrl !== undefined) info.iFrameUrl = message.iFrameUrl
  return info
}

export type SyncVerdict =
  | { ok: true; origin: string; sync: SyncMessage; ack: WireMessage; ready: ReadyPayload }
  | { ok: false; reason: string }

/**
 * Widget side: checks a SYNC that came from window.parent at `eventOrigin` and builds
 * the SYNC_ACK and the onReady payload. Never throws.
 */
/**
 * Set only by Ringside's CDN build of the npm package when it stands in for a prerelease the
 * page pinned (shared/sdk-cdn/globals.ts): its SYNC_ACK then says `ringsideSdkSubstitution:
 * {requested, served}` (an extra field; the host's schemas are loose), so the host can warn.
 */
let substitution: { readonly requested: string; readonly served: string } | null = null
export function announceSubstitution(announced: { requested: string; served: string }): void {
  substitution = { requested: announced.requested, served: announced.served }
}

export function answerSync(raw: unknown, eventOrigin: string, allowedHosts: ReadonlySet<string> | null, debugMode: boolean): SyncVerdict {
  const result = validateMessage(raw, 'from-host')
  if (!result.ok) return { ok: false, reason: `dropped an invalid SYNC (${result.reason})` }
  const sync = result.message as SyncMessage
  const origin = httpOrigin(sync.hostUrl)
  if (origin === null || origin !== eventOrigin) {
    return { ok: false, reason: `dropped a SYNC: origin ${eventOrigin} does not match hostUrl ${String(sync.hostUrl).slice(0, 200)}` }
  }
  if (allowedHosts !== null && !allowedHosts.has(origin)) {
    return { ok: false, reason: `dropped a SYNC from ${origin}: not in hostOrigins` }
  }
  // SYNC_ACK = every SYNC field (same messageId) + type, debugMode, version, iFrameUrl
  const ack: WireMessage = Object.assign({}, sync)
  ack.type = 'SYNC_ACK'
  ack.debugMode = debugMode
  ack.version = SDK_VERSION
  ack.iFrameUrl = window.location.origin
  if (substitution !== null) ack.ringsideSdkSubstitution = { ...substitution }
  const ready: ReadyPayload = {
    engagementId: sync.engagementId,
    portalId: sync.portalId,
    userId: sync.userId,
    ownerId: sync.ownerId,
    iframeLocation: sync.iframeLocation,
    usesCallingWindow: sync.usesCallingWindow,
    hostUrl: sync.hostUrl,
  }
  return { ok: true, origin, sync, ack, ready }
}

/** Widget side: the `hostOrigins` option as a set of origins (null: any host); throws on a non-http(s) entry. */
export function allowedHosts(hostOrigins: readonly string[] | undefined): ReadonlySet<string> | null {
  if (hostOrigins === undefined) return null
  const origins = new Set<string>()
  for (const entry of hostOrigins) {
    const origin = httpOrigin(entry)
    if (!origin) throw new Error(`hostOrigins: ${JSON.stringify(entry)} is not an http(s) origin`)
    origins.add(origin)
  }
  return origins
}

/** Cheap pre-check before the handshake (validation follows); never throws. */
export function isSync(raw: unknown): raw is { type: 'SYNC' } {
  return typeOf(raw) === 'SYNC'
}
