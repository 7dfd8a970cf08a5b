import { sharedClock } from './clock.ts'
import type { HandlerCall, WidgetFixtureWindow } from './fixture-globals.ts'

type RecordingHandler = (data: unknown, message?: unknown) => void

/**
 * The recording half of both widget fixtures: initialises the window globals
 * and builds event handlers that record every call in `__received` (and the
 * first onReady time in `__readyAt`).
 */
export function startWidgetRecorder<W extends WidgetFixtureWindow>(): {
  globals: W
  markReady(): void
  recordingHandlers(names: readonly string[]): Record<string, RecordingHandler>
} {
  const globals = window as unknown as W
  const received: HandlerCall[] = []
  globals.__received = received
  globals.__readyAt = null
  const markReady = (): void => {
    if (globals.__readyAt === null) globals.__readyAt = sharedClock()
  }
  const recordingHandlers = (names: readonly string[]): Record<string, RecordingHandler> => {
    const handlers: Record<string, RecordingHandler> = {}
    for (const name of names) {
      handlers[name] = (data, message) => {
        if (name === 'onReady') markReady()
        received.push({ handler: name, data, message })
      }
    }
    return handlers
  }
  return { globals, markReady, recordingHandlers }
}
