/**
 * The calling integration of the harness (see README.md in this folder).
 * The app shell places the components; record pages use startCall/useCanDial.
 */
import { useCalling, dialBlocker } from './core/calling-store.ts'
import type { StartCallInput, StartCallResult } from './core/controller/controller.ts'
import { callingRuntime, type CallingConfig } from './core/runtime.ts'

import { dockReserve } from './dock/calling-dock.tsx'
import { taskQueue } from './task-queue/task-queue-instance.ts'
export { CallingDock } from './dock/calling-dock.tsx'
export { TaskQueueBar, TaskQueuePage } from './task-queue/task-queue-panel.tsx'
export { InspectorPanel } from './inspector/inspector-panel.tsx'
export { FaultsPanel } from './faults/faults-panel.tsx'
export { ComposerPanel } from './faults/composer-panel.tsx'
export { CallingStatusBadge } from './dock/status-badge.tsx'
export type { StartCallInput, StartCallResult } from './core/controller/controller.ts'
export { defaultWidgetUrl } from './core/settings.ts'

/**
 * A record page's Call button: shows the widget and sends DIAL_NUMBER.
 * `{ ok: false, reason }` when the widget cannot dial (same reason as useCanDial).
 */
export function startCall(input: StartCallInput): StartCallResult {
  return callingRuntime.startCall(input)
}

/** Whether a Call button may dial now, and if not, why (for its disabled state and hint). */
export function useCanDial(): { ok: boolean; reason?: string } {
  const reason = useCalling(dialBlocker)
  return reason === null ? { ok: true } : { ok: false, reason }
}

/**
 * Called once at startup by the app shell. `navigate` opens a record
 * (NAVIGATE_TO_RECORD); it returns false when it cannot.
 */
export function configureCalling(config: CallingConfig): void {
  callingRuntime.configure(config)
  taskQueue.setNavigate((type, id) => config.navigate(type, id))
  callingRuntime.setCallHooks({ keepVisible: () => taskQueue.keepVisible(), onCallLogged: (call) => void taskQueue.onCallLogged(call) })
  callingRuntime.start()
}

/** Pixels the page keeps free on its right for the docked widget, so the dock never covers the record or its timeline. */
export function useDockReserve(): number {
  return useCalling(dockReserve)
}
