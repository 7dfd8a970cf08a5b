import { pathToFileURL } from 'node:url'
import { bundleServer } from '../../tools/build/server-bundle.mjs'

type ServerModule = typeof import('../../emulator/node/server.ts')

/**
 * emulator/node/server.ts for a test that starts servers of its own, loaded from its esbuild bundle (as
 * `npm start` runs it): imported as TypeScript, Playwright's loader would compile the server and
 * the emulator in the test worker first, several seconds of CPU whenever its cache is cold.
 */
export async function importServer(): Promise<ServerModule> {
  return (await import(pathToFileURL(await bundleServer('emulator/node/server.ts')).href)) as ServerModule
}
