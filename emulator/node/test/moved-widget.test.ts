/**
 * Saved data registers the reference widget at the widget origin of the server that seeded it; a server on another
 * port warns that the dock would show nothing there, and says both ways out.
 */
import { afterAll, expect, test } from 'vitest'
import { startRingside } from '../server.ts'
import { freePortPair, removeScratchDirs, scratchDir } from './support.ts'

afterAll(() => removeScratchDirs())

test('data seeded on one port, served on another: a warning naming both widget origins, --widget and --port; none on the same port or with --widget', { timeout: 60_000 }, async () => {
  const data = scratchDir('moved-widget')
  const first = await freePortPair()
  const seeded = await startRingside({ port: first, data, pages: 'none' })
  expect(seeded.warnings).toEqual([])
  await seeded.close()

  const second = await freePortPair()
  const moved = await startRingside({ port: second, data, pages: 'none' })
  expect(moved.warnings).toEqual([
    `The data registers the reference widget at http://127.0.0.1:${first + 1}/widget/, the widget origin of a server on port ${first}; this server's is http://127.0.0.1:${second + 1}/widget/, so the dock would show nothing. ` +
      `Register this one with --widget http://127.0.0.1:${second + 1}/widget/, or start on the data's port with --port ${first}.`,
  ])
  await moved.close()

  const again = await startRingside({ port: first, data, pages: 'none' })
  expect(again.warnings).toEqual([])
  await again.close()

  const registered = await startRingside({ port: second, data, pages: 'none', widgetUrl: `http://127.0.0.1:${second + 1}/widget/` })
  expect(registered.warnings).toEqual([])
  await registered.close()
  const after = await startRingside({ port: second, data, pages: 'none' })
  expect(after.warnings).toEqual([])
  await after.close()
})
