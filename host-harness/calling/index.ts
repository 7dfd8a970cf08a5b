/**
 * The calling integration of the harness (see README.md in this folder).
 * The app shell places the components; record pages use startCall/useCanDial.
 */
import { useCalling, dialBlocker, callingStore } from './core/calling-store.ts'
import { parseLocation } from '../lib/hash-routes.ts'
import { topology } from './topology/topology.ts'
import { usePageLink, WINDOW_CARD_RESERVE } from './topology/window-call-card.tsx'
import { windowDialBlocker } from './topology/page-link.ts'
import type { StartCallInput, StartCallResult } from './core/controller/controller.ts'
import { callingRuntime, type CallingConfig } from './core/runtime.ts'

import { dockReserve, dockTitle } from './dock/calling-dock.tsx'
import { taskQueue } from './task-queue/task-queue-instance.ts'
export { PlacedDock as CallingDock, PlacedStatusBadge as CallingStatusBadge, CallingWindowPage } from './placements.tsx'
export { NavigationSwitch } from './topology/navigation-switch.tsx'
export { TaskQueueBar, TaskQueuePage } from './task-queue/task-queue-panel.tsx'
export { InspectorPanel } from './inspector/inspector-panel.tsx'
export { FaultsPanel } from './faults/faults-panel.tsx'
export { ComposerPanel } from './faults/composer-panel.tsx'
export type { StartCallInput, StartCallResult } from './core/controller/controller.ts'
export { defaultWidgetUrl } from './core/settings.ts'
export { useRefusedLog } from './core/refused-logs.ts'

/**
 * A record page's Call button: shows the widget and sends DIAL_NUMBER.
 * `{ ok: false, reason }` when the widget cannot dial (same reason as useCanDial).
 */
export function startCall(input: StartCallInput): StartCallResult {
  return topology.routeCall(input) ?? callingRuntime.startCall(input)
}

/** Whether a Call button may dial now, and if not, why (for its disabled state and hint). */
export function useCanDial(): { ok: boolean; reason?: string } {
  // In the window placement a record page's Call opens (or reaches) the calling window, which answers for its
  // widget: the page is blocked only by what that window reports (undefined here means "ask the window").
  const own = useCalling((s) => (s.iframeLocation === 'window' && !topology.inCallingWindow ? undefined : dialBlocker(s)))
  const link = usePageLink()
  const reason = own === undefined ? windowDialBlocker(link) : own
  return reason === null ? { ok: true } : { ok: false, reason }
}

/**
 * Called once at startup by the app shell. `navigate` opens a record
 * (NAVIGATE_TO_RECORD); it returns false when it cannot.
 */
export function configureCalling(config: CallingConfig): void {
  const inCallingWindow = parseLocation(window.location.search, window.location.hash).page === 'calling-window'
  // The calling window never leaves its route: the widget's NAVIGATE_TO_RECORD moves the CRM page instead.
  callingRuntime.configure(inCallingWindow ? { ...config, navigate: (type, id) => topology.navigateFromWindow(type, id) } : config)
  topology.start({ runtime: callingRuntime, store: callingStore, inCallingWindow, widgetName: (s) => dockTitle(s.effective, s.currentSrc).title })
  taskQueue.setNavigate((type, id) => config.navigate(type, id))
  callingRuntime.setCallHooks({ keepVisible: () => taskQueue.keepVisible(), onCallLogged: (call) => void taskQueue.onCallLogged(call) })
  callingRuntime.start()
}

/** Pixels the page keeps free on its right for the docked widget, so the dock never covers the record or its timeline. */
export function useDockReserve(): number {
  // In the window placement a record page holds the card and the remote frame, one above the other.
  return useCalling((s) => (s.iframeLocation === 'window' && !topology.inCallingWindow ? Math.max(WINDOW_CARD_RESERVE, dockReserve(s)) : dockReserve(s)))
}
