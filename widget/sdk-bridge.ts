import { fromCallback } from 'xstate'
import {
  parseCallerIdMatchFailed,
  parseCallerIdMatched,
  parseDialNumber,
  parseEngagementCreateFailed,
  parseEngagementCreated,
  parseEngagementUpdateFailed,
  parseEngagementUpdated,
  parseFailureNotice,
  parseReady,
  parseVisibilityChanged,
  type Parsed,
} from './host-events.ts'
import { runCommand, type HostEvent, type SdkCommand, type SdkPort } from './sdk-port.ts'

/**
 * The one place where wire messages become machine events and machine
 * commands become SDK calls.
 */

/** The SDK's event handlers the widget implements, by the SDK's names. */
export interface WidgetHandlers {
  onReady(data: unknown): void
  onDialNumber(data: unknown): void
  onCreateEngagementSucceeded(data: unknown): void
  onCreateEngagementFailed(data: unknown): void
  onUpdateEngagementSucceeded(data: unknown): void
  onUpdateEngagementFailed(data: unknown): void
  onCallerIdMatchSucceeded(data: unknown): void
  onCallerIdMatchFailed(data: unknown): void
  onEndCall(): void
  onVisibilityChanged(data: unknown): void
  onNavigateToRecordFailed(data: unknown): void
  onFinalizeEngagementSucceeded(data: unknown): void
  onFinalizeEngagementFailed(data: unknown): void
  onSetWidgetUrlFailed(data: unknown): void
  defaultEventHandler(data: unknown, message?: unknown): void
}

export type Logger = (message: string, detail?: unknown) => void

/**
 * Handlers that validate each payload and deliver the resulting machine
 * event. A payload that cannot be used is logged and reported as a
 * `host.notice`, never thrown.
 */
export function createWidgetHandlers(deliver: (event: HostEvent) => void, log: Logger = console.warn): WidgetHandlers {
  const take = (what: string, parsed: Parsed, raw: unknown) => {
    if (parsed.ok) {
      deliver(parsed.event)
      return
    }
    log(`[widget] dropped ${what}: ${parsed.reason}`, raw)
    deliver({ type: 'host.notice', message: `Ignored a malformed message from the CRM (${parsed.reason}).` })
  }
  return {
    onReady: (data) => take('READY', parseReady(data), data),
    onDialNumber: (data) => take('DIAL_NUMBER', parseDialNumber(data), data),
    onCreateEngagementSucceeded: (data) => take('CREATE_ENGAGEMENT_SUCCEEDED', parseEngagementCreated(data), data),
    onCreateEngagementFailed: (data) => take('CREATE_ENGAGEMENT_FAILED', parseEngagementCreateFailed(data), data),
    onUpdateEngagementSucceeded: (data) => take('UPDATE_ENGAGEMENT_SUCCEEDED', parseEngagementUpdated(data), data),
    onUpdateEngagementFailed: (data) => take('UPDATE_ENGAGEMENT_FAILED', parseEngagementUpdateFailed(data), data),
    onCallerIdMatchSucceeded: (data) => take('CALLER_ID_MATCH_SUCCEEDED', parseCallerIdMatched(data), data),
    onCallerIdMatchFailed: (data) => take('CALLER_ID_MATCH_FAILED', parseCallerIdMatchFailed(data), data),
    onEndCall: () => deliver({ type: 'host.endCall' }),
    onVisibilityChanged: (data) => take('VISIBILITY_CHANGED', parseVisibilityChanged(data), data),
    onNavigateToRecordFailed: (data) => take('NAVIGATE_TO_RECORD_FAILED', parseFailureNotice('Opening the record failed', data), data),
    // The widget never calls finalizeEngagement; a reply is unexpected, so it is only logged.
    onFinalizeEngagementSucceeded: (data) => log('[widget] unexpected FINALIZE_ENGAGEMENT_SUCCEEDED', data),
    onFinalizeEngagementFailed: (data) => take('FINALIZE_ENGAGEMENT_FAILED', parseFailureNotice('Finalizing the call failed', data), data),
    onSetWidgetUrlFailed: (data) => take('SET_WIDGET_URL_FAILED', parseFailureNotice('Changing the widget URL failed', data), data),
    // The host sends the legacy ENGAGEMENT_CREATED after CREATE_ENGAGEMENT_SUCCEEDED, as the real CRM
    // does; this widget takes the engagement from the latter, so the former is expected and quiet.
    defaultEventHandler: (data, message) => {
      if (typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'ENGAGEMENT_CREATED') return
      log('[widget] message without a handler', data)
    },
  }
}

/**
 * Connects to the SDK: given the handlers, builds the SDK instance and
 * returns the port the widget calls, plus an optional teardown.
 */
export type ConnectSdk = (handlers: WidgetHandlers) => { port: SdkPort; dispose?: () => void }

/** The `sdk` actor of the call machine, bound to a real or fake SDK. */
export function createSdkBridge(connect: ConnectSdk, log: Logger = console.warn) {
  return fromCallback<SdkCommand>(({ sendBack, receive }) => {
    const { port, dispose } = connect(createWidgetHandlers(sendBack, log))
    receive((command) => runCommand(port, command))
    return () => dispose?.()
  })
}
