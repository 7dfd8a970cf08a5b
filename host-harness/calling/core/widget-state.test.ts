import { expect, test } from 'vitest'
import { describeWidget, dialBlockerOf, widgetState, type WidgetStateInput } from './widget-state.ts'

const base: WidgetStateInput = { settingsLoad: 'loaded', mounted: true, status: 'idle', failureCause: null, initialized: false, loggedIn: null, available: null }

/** Every moment of a widget's start, as the store goes through it. */
const MOMENTS: Array<[string, Partial<WidgetStateInput>]> = [
  ['settings loading', { settingsLoad: 'loading', mounted: false }],
  ['no widget', { mounted: false }],
  ['page loading', {}],
  ['handshake', { status: 'syncing' }],
  ['ready, before INITIALIZED', { status: 'ready' }],
  ['ready, logged out', { status: 'ready', initialized: true, loggedIn: false, available: true }],
  ['ready, logged in', { status: 'ready', initialized: true, loggedIn: true, available: false }],
  ['failed', { status: 'failed', failureCause: 'timeout' }],
  // What a reload leaves for a moment: a status that is not ready, with the old widget's login still in the store.
  ['reloading with a stale login', { status: 'syncing', initialized: true, loggedIn: true, available: true }],
]

test.each(MOMENTS)('%s: the badge, the pill, the cover and the reason not to dial tell one state', (_, change) => {
  const state = widgetState({ ...base, ...change })
  const text = describeWidget(state)
  const ready = state.phase === 'ready'
  // Nothing but a ready widget shows login, availability or no cover; nothing but a failed one shows a failure.
  expect(text.badge.startsWith('Widget ready')).toBe(ready)
  expect(text.pill.startsWith('Handshake ready')).toBe(ready)
  if (!ready) expect([state.loggedIn, state.available]).toEqual([null, null])
  expect(text.tone === 'bad').toBe(state.phase === 'failed' || state.phase === 'none')
  expect(text.badge.includes('failed')).toBe(state.phase === 'failed')
  expect(text.pill.includes('failed')).toBe(state.phase === 'failed')
  // A widget that is still starting is covered; a ready or failed one shows its own page.
  expect(text.cover !== null).toBe(['settings', 'loading', 'handshake'].includes(state.phase))
  // Dialling is allowed exactly when the badge says ready and logged in.
  expect(dialBlockerOf(state) === null).toBe(ready && state.initialized && state.loggedIn === true)
})

test('the phases, in order of a start', () => {
  expect(MOMENTS.map(([, change]) => widgetState({ ...base, ...change }).phase)).toEqual([
    'settings',
    'none',
    'loading',
    'handshake',
    'ready',
    'ready',
    'ready',
    'failed',
    'handshake',
  ])
})

test('a calling window report (no settings, no mount) reads the same way', () => {
  expect(describeWidget(widgetState({ status: 'ready', loggedIn: true, available: null })).badge).toBe('Widget ready')
  expect(describeWidget(widgetState({ status: 'idle', loggedIn: null, available: null })).badge).toBe('Widget loading')
  expect(describeWidget(widgetState({ status: 'failed', loggedIn: true, available: true })).badge).toBe('Widget failed (unknown)')
})
