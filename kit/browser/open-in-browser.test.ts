import { describe, expect, it } from 'vitest'
import { noDesktop, openInBrowser } from './open-in-browser.ts'

describe('opening a report or the harness in a browser', () => {
  it('knows when there is no desktop to open it on', () => {
    expect(noDesktop({ CI: 'true', DISPLAY: ':0' }, 'linux')).toBe('running in CI')
    expect(noDesktop({ CI: '1' }, 'darwin')).toBe('running in CI')
    expect(noDesktop({}, 'linux')).toBe('no desktop (neither DISPLAY nor WAYLAND_DISPLAY is set)')
    expect(noDesktop({ CI: 'false', WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBeNull()
    expect(noDesktop({ DISPLAY: ':0' }, 'freebsd')).toBeNull()
    expect(noDesktop({}, 'darwin')).toBeNull()
    expect(noDesktop({}, 'win32')).toBeNull()
  })

  it('in CI it starts nothing and says why, so the command never fails for it', async () => {
    expect(await openInBrowser('/nowhere/index.html', { env: { CI: 'true' } })).toEqual({ opened: false, reason: 'running in CI' })
  })
})

describe('ringside open', () => {
  it('names a URL on a port Chromium refuses, before it starts anything, and a port that works', async () => {
    const { refusedPortOf } = await import('../../package/open.ts')
    expect(refusedPortOf('http://127.0.0.1:6000', 'ringside')).toBe(
      'http://127.0.0.1:6000 is on port 6000, which Chromium refuses to load (net::ERR_UNSAFE_PORT); start Ringside on another port (e.g. `ringside start --port 6001`) and pass its URL.',
    )
    expect(refusedPortOf('http://localhost:6665/widget/', 'page')).toBe('http://localhost:6665 is on port 6665, which Chromium refuses to load (net::ERR_UNSAFE_PORT); serve the page on another port.')
    expect(refusedPortOf('http://127.0.0.1:4173/', 'ringside')).toBeNull()
    expect(refusedPortOf('https://example.test/', 'page')).toBeNull()
    expect(refusedPortOf('not a url', 'page')).toBeNull()
  })
})
