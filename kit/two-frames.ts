/**
 * The handshake of a placement, as the wire shows it. With `usesCallingWindow` the real CRM loads the widget
 * twice: in the calling window (`iframeLocation: 'window'`) and in the remote of the CRM page beside it
 * (`iframeLocation: 'remote'`), both told `usesCallingWindow: true`, each with its own SYNC; the SDK's demos speak
 * to the CRM from the window and keep the remote in step over a BroadcastChannel of their own
 * (HubSpot/calling-extensions-sdk, demos/demo-react-ts/src/hooks/useCti.ts). A check of the window placement
 * covers both frames: each must get its SYNC and answer it.
 */
import type { RecordedMessage } from './message-log.ts'
import type { Placement } from './placements.ts'

/** The SYNC fields a frame was told (top level, or under `data` in older SDK shapes). */
function told(record: RecordedMessage): { iframeLocation?: unknown; usesCallingWindow?: unknown } {
  const sync = record.data as { iframeLocation?: unknown; usesCallingWindow?: unknown; data?: { iframeLocation?: unknown; usesCallingWindow?: unknown } } | undefined
  return { iframeLocation: sync?.iframeLocation ?? sync?.data?.iframeLocation, usesCallingWindow: sync?.usesCallingWindow ?? sync?.data?.usesCallingWindow }
}

/**
 * What is wrong with the placement's handshake on the wire, or null. `windowPageUrl`: the calling window's page
 * (window placement), whose SYNC_ACKs are the window frame's; the others are the remote's.
 */
export function placementHandshakeProblem(log: readonly RecordedMessage[], placement: Placement, windowPageUrl: string | null): string | null {
  const syncs = log.filter((r) => r.type === 'SYNC' && r.direction === 'to-widget').map(told)
  if (placement !== 'window') {
    const first = syncs[0]
    return first?.iframeLocation === placement ? null : `The harness did not place the widget in the ${placement} placement: its SYNC says iframeLocation ${JSON.stringify(first?.iframeLocation)}`
  }
  const frames: Array<'window' | 'remote'> = ['window', 'remote']
  for (const frame of frames) {
    if (!syncs.some((s) => s.iframeLocation === frame && s.usesCallingWindow === true)) {
      return `In the window placement the CRM loads the widget in the calling window and in the remote beside it: no SYNC told a frame iframeLocation "${frame}" with usesCallingWindow true`
    }
  }
  const acks = log.filter((r) => r.type === 'SYNC_ACK' && r.direction === 'from-widget')
  const windowAcked = acks.some((r) => r.frameUrl === windowPageUrl)
  const remoteAcked = acks.some((r) => r.frameUrl !== windowPageUrl)
  if (!windowAcked) return 'The widget in the calling window (iframeLocation "window") never answered its SYNC with SYNC_ACK'
  if (!remoteAcked) return 'The widget in the remote beside the calling window (iframeLocation "remote") never answered its SYNC with SYNC_ACK'
  return null
}
