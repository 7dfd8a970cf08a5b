// The install's policy, walked over every package of package-lock.json, so that `npm ci` on a supported Node prints
// no warning and runs no install script nobody decided on (docs/install.md says why each decision is what it is).
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import semver from 'semver'

const root = resolve(import.meta.dirname, '../..')
const manifest = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { engines: { node: string }; allowScripts: Record<string, boolean> }
interface Locked { version?: string; optional?: boolean; hasInstallScript?: boolean; engines?: { node?: string } | string[] }
const lock = JSON.parse(readFileSync(resolve(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, Locked> }
/** Every installed package: its name (from its folder, as npm names it) and its lock entry. */
const installed = Object.entries(lock.packages)
  .filter(([path]) => path !== '')
  .map(([path, entry]) => ({ name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length), path, entry }))
const nodeRange = (entry: Locked) => (Array.isArray(entry.engines) ? undefined : entry.engines?.node)
/** The exact releases CI runs on, from their one home. */
const pinned = execFileSync('bash', [resolve(root, '.ci/node.sh'), '--versions'], { encoding: 'utf8' })
  .trim()
  .split('\n')
  .map((line) => line.split(' ') as [string, string])

test('every package with an install script is decided in allowScripts, and every entry there names one', () => {
  const withScripts = new Set(installed.filter(({ entry }) => entry.hasInstallScript).map(({ name }) => name))
  expect(withScripts.size).toBeGreaterThan(0)
  for (const name of withScripts) expect(manifest.allowScripts, `${name} has an install script that package.json's allowScripts does not decide`).toHaveProperty([name])
  for (const name of Object.keys(manifest.allowScripts)) expect(withScripts, `allowScripts names ${name}, which has no install script in the lock`).toContain(name)
  // Bare names: npm 11 takes a pinned "name@version" entry's version from the lock's resolved URL, and refuses to
  // apply it to a lock written without those URLs (omit-lockfile-registry-resolved); a bare name applies to every version.
  for (const key of Object.keys(manifest.allowScripts)) expect(key).toMatch(/^(@[\w.-]+\/)?[\w.-]+$/)
})

test('every Node that engines accepts meets the engines of every required package (no EBADENGINE on a supported line)', () => {
  const ours = manifest.engines.node
  const misses = installed
    .filter(({ entry }) => !entry.optional && nodeRange(entry) !== undefined)
    .filter(({ entry }) => !semver.subset(ours, nodeRange(entry)!))
    .map(({ path, entry }) => `${path} wants node ${nodeRange(entry)}`)
  expect(misses).toEqual([])
})

test('the Node releases CI pins are the supported lines (22 and 24), accepted by engines and by every package, optional ones too', () => {
  expect(pinned.map(([line]) => line).sort()).toEqual(['22', '24'])
  for (const [line, version] of pinned) {
    expect(semver.major(version)).toBe(Number(line))
    expect(semver.satisfies(version, manifest.engines.node), `${version} is outside engines ${manifest.engines.node}`).toBe(true)
    const misses = installed.filter(({ entry }) => nodeRange(entry) !== undefined && !semver.satisfies(version, nodeRange(entry)!)).map(({ path }) => path)
    expect(misses, `Node ${version} would leave out or warn about these packages`).toEqual([])
  }
})

test("msw's install script is not needed: the committed worker is the installed msw's own", () => {
  // msw's postinstall (denied in allowScripts) would copy lib/mockServiceWorker.js into package.json's
  // msw.workerDirectory. The worker is committed instead; after an msw upgrade, `npx msw init public` refreshes it.
  const committed = readFileSync(resolve(root, 'public/mockServiceWorker.js'), 'utf8')
  const installedWorker = readFileSync(resolve(root, 'node_modules/msw/lib/mockServiceWorker.js'), 'utf8')
  expect(committed === installedWorker, 'public/mockServiceWorker.js is not the worker of the installed msw: run `npx msw init public`').toBe(true)
})
