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
