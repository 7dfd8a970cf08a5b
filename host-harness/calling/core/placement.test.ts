import fc from 'fast-check'
import { callingWindowUrl, frameOf, navigationMode, placementFromQuery, placementFromSettings, syncPlacement } from './placement.ts'

test.each([
  ['', null],
  ['?placement=widget', 'widget'],
  ['?placement=remote', 'remote'],
  ['?placement=window&widget=http://x', 'window'],
])('%s asks for placement %s', (search, placement) => {
  expect(placementFromQuery(search)).toEqual({ placement })
})

test('an unknown placement is reported and ignored', () => {
  const result = placementFromQuery('?placement=popup')
  expect(result.placement).toBeNull()
  expect(result.error).toMatch(/popup is not one of widget, remote, window/)
})

test('the settings choose the calling window, then the remote (inbound + usesRemote), else the widget', () => {
  expect(placementFromSettings({ usesCallingWindow: true, usesRemote: true, supportsInboundCalling: true })).toBe('window')
  expect(placementFromSettings({ usesCallingWindow: false, usesRemote: true, supportsInboundCalling: true })).toBe('remote')
  expect(placementFromSettings({ usesCallingWindow: false, usesRemote: true, supportsInboundCalling: false })).toBe('widget')
  expect(placementFromSettings({ usesCallingWindow: false, usesRemote: false, supportsInboundCalling: true })).toBe('widget')
})

test('in the window placement the calling window loads the window frame and a record page the remote, both told usesCallingWindow', () => {
  expect(syncPlacement('window', true)).toEqual({ iframeLocation: 'window', usesCallingWindow: true })
  expect(syncPlacement('window', false)).toEqual({ iframeLocation: 'remote', usesCallingWindow: true })
  expect(frameOf('window', false)).toBe('remote')
  expect(frameOf('window', true)).toBe('window')
})

test('the other placements load their own frame, with usesCallingWindow false', () => {
  for (const inCallingWindow of [false, true]) {
    expect(syncPlacement('remote', inCallingWindow)).toEqual({ iframeLocation: 'remote', usesCallingWindow: false })
    expect(syncPlacement('widget', inCallingWindow)).toEqual({ iframeLocation: 'widget', usesCallingWindow: false })
  }
})

test('?navigation= wins over the stored setting; only "full" reloads', () => {
  expect(navigationMode('', null)).toBe('in-page')
  expect(navigationMode('', 'full')).toBe('full')
  expect(navigationMode('?navigation=full', null)).toBe('full')
  expect(navigationMode('?navigation=in-page', 'full')).toBe('in-page')
  expect(navigationMode('?navigation=reload', null)).toBe('in-page')
})

test('the calling window keeps the page query and forces placement=window', () => {
  expect(callingWindowUrl({ search: '?widget=http%3A%2F%2Fw%2F&placement=widget&navigation=full' })).toBe(
    '?widget=http%3A%2F%2Fw%2F&placement=window&navigation=full#/calling-integration-popup-ui/123456',
  )
})

// ringside/url-sink trusts callingWindowUrl by name (eslint.config.js): whatever the page's query, it stays a
// `?…#/calling-integration-popup-ui/<portalId>` reference to the opening page's own path.
test('the calling window URL is a reference to the same page for any query', () => {
  fc.assert(
    fc.property(fc.string(), (search) => {
      const href = callingWindowUrl({ search })
      expect(href).toMatch(/^\?/)
      const resolved = new URL(href, 'http://127.0.0.1:5173/app/')
      expect(`${resolved.origin}${resolved.pathname}${resolved.hash}`).toBe('http://127.0.0.1:5173/app/#/calling-integration-popup-ui/123456')
    }),
    { numRuns: 300 },
  )
})
