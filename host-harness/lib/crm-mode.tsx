/**
 * Which mode the page's CRM runs in (see emulator/browser/connect.ts): a
 * quiet badge for the top bar and a sentence for Developer → Database.
 */
import { useSyncExternalStore } from 'react'
import { crmConnectionInfo, liveUpdates, onLiveUpdates } from './api-client.ts'

export function CrmModeBadge() {
  const info = crmConnectionInfo()
  if (!info) return null
  const server = info.mode === 'server'
  return (
    <span
      className="crm-mode-badge"
      data-mode={info.mode}
      title={server ? 'The CRM API is served by the local Ringside server: every page, backend and curl share one database.' : 'The CRM API runs in this browser (MSW); only this browser can reach it.'}
    >
      {server ? 'Server mode' : 'Browser-only'}
    </span>
  )
}

/**
 * Shown while the server refuses this page's change stream (e.g. its cap on
 * open streams): the page still works, but changes made elsewhere (another
 * tab, a backend, curl) show only after a reload.
 */
export function LiveUpdatesWarning() {
  const state = useSyncExternalStore(onLiveUpdates, liveUpdates)
  if (state.live) return null
  return (
    <span className="live-updates-warning" role="status" title={`The server refused this page's change stream (HTTP ${state.status}): ${state.message} The page keeps retrying.`}>
      Live updates off: changes made elsewhere show after a reload
    </span>
  )
}

/** Where the data lives and who shares it, in one sentence. */
export function crmModeDescription(): string {
  const info = crmConnectionInfo()
  if (!info) return 'The CRM is not connected yet.'
  if (info.mode === 'browser-only') {
    return 'Browser-only mode: the emulated CRM runs in this browser and keeps its data here (IndexedDB). Nothing outside this browser can reach it; `npm start` runs it as a server instead.'
  }
  const server = info.server
  if (server?.sandbox) return `Server mode, sandbox ${server.sandbox}: this browser has a fresh in-memory database of its own (the server runs with --sandboxes).`
  const where = server?.data ? `on disk in ${server.data}` : 'in the server’s memory'
  return `Server mode: the data lives ${where}, shared by every tab, page, backend and curl that uses ${server?.origin ?? 'this server'}. A write is saved before it is answered.`
}
