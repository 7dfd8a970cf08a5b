import { readdirSync, readFileSync } from 'node:fs'
import { defineConfig, mergeConfig } from 'vitest/config'
import viteConfig from './vite.config.ts'

/**
 * Two environments: the DOM-free emulator (emulator/) and shared/traffic (and tools/, kit/ and
 * package) run under plain Node (which proves it needs no DOM); everything else runs under jsdom. A file
 * that names its environment in a `@vitest-environment` docblock runs in that environment's project
 * wherever it lives.
 *
 * Each worker runs its files one after another in one module graph and one environment
 * (`isolate: false`): importing the sources and creating jsdom once per worker instead of once per
 * file halves the run (measured back to back on 2 cores: the dom files of host-harness/panels and
 * host-harness/calling 37 s → 9 s, the node project 135 s → 90 s). A file that replaces modules
 * (vi.mock, vi.doMock, vi.resetModules) or the environment (vi.stubEnv) would leak that into the files
 * after it, so such files are found here, by their text, and run isolated, each in a fresh module graph
 * and environment, in projects of their own ("node (isolated)", "dom (isolated)"). So does a node file
 * that stubs globals (vi.stubGlobal); a dom file that does shares its worker, since the dom setup file
 * (tools/test/vitest-setup.ts) puts every stubbed global back after each test. That setup file also
 * empties the storage and the document before each file.
 *
 * A worker is kept for the next file only when that file has the same project and environment; any
 * other file ends it, and the next one starts a new worker that imports everything again. So no project
 * holds a file of another environment (a docblock would switch the worker's environment mid-project),
 * and Vitest's own order (project by project) keeps each project's files together.
 *
 * Vitest reports an "environment" time per file; with shared workers it repeats the worker's one jsdom
 * setup for every file that worker ran, so its sum is not a cost (one jsdom costs about 1 CPU-s).
 */
const NODE_DIRS = ['emulator', 'shared/traffic', 'tools', 'kit', 'package']
const DOM_DIRS = ['shared', 'widget', 'host-harness']
const REPLACES_MODULES = /\bvi\.(mock|doMock|stubEnv|resetModules)\(/
const STUBS_GLOBALS = /\bvi\.stubGlobal\(/
const DOCBLOCK_ENVIRONMENT = /@vitest-environment\s+(node|jsdom)\b/

function testFiles(dirs: readonly string[], pattern: RegExp): string[] {
  return dirs.flatMap((dir) =>
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((file) => pattern.test(file) && !file.split('/').includes('node_modules'))
      .map((file) => `${dir}/${file}`),
  )
}
const underNode = (file: string) => NODE_DIRS.some((dir) => file.startsWith(`${dir}/`))
const texts = new Map(
  [...testFiles(NODE_DIRS, /\.test\.ts$/), ...testFiles(DOM_DIRS, /\.test\.tsx?$/).filter((file) => !underNode(file))].map(
    (file) => [file, readFileSync(file, 'utf8')] as const,
  ),
)
const environmentOf = (file: string) => DOCBLOCK_ENVIRONMENT.exec(texts.get(file) ?? '')?.[1] ?? (underNode(file) ? 'node' : 'jsdom')
const files = [...texts.keys()]
const nodeFiles = files.filter((file) => environmentOf(file) === 'node')
const domFiles = files.filter((file) => environmentOf(file) === 'jsdom')
/** Files whose docblock takes them out of the project their folder puts them in. */
const movedToNode = nodeFiles.filter((file) => !underNode(file))
const movedToDom = domFiles.filter((file) => underNode(file))
const isolated = (list: string[], patterns: RegExp[]) => list.filter((file) => patterns.some((pattern) => pattern.test(texts.get(file) ?? '')))
const isolatedNode = isolated(nodeFiles, [REPLACES_MODULES, STUBS_GLOBALS])
const isolatedDom = isolated(domFiles, [REPLACES_MODULES])

const nodeProject = {
  environment: 'node' as const,
  include: [...NODE_DIRS.map((dir) => `${dir}/**/*.test.ts`), ...movedToNode],
  exclude: ['**/node_modules/**', ...movedToDom],
}
const domProject = {
  environment: 'jsdom' as const,
  include: [...DOM_DIRS.map((dir) => `${dir}/**/*.test.{ts,tsx}`), ...movedToDom],
  // The node folders, but by file where one holds a file moved here (an excluded folder could not be re-included).
  exclude: [
    ...NODE_DIRS.flatMap((dir) => {
      const inDir = (file: string) => file.startsWith(`${dir}/`)
      return movedToDom.some(inDir) ? nodeFiles.filter(inDir) : [`${dir}/**`]
    }),
    '**/node_modules/**',
    ...movedToNode,
  ],
  setupFiles: ['tools/test/vitest-setup.ts'],
}
/** A project of the isolated files, when there are any (an empty `include` would mean Vitest's default). */
const isolatedProject = (name: string, base: { environment: 'node' | 'jsdom'; setupFiles?: string[] }, list: string[]) =>
  list.length === 0 ? [] : [{ extends: true as const, test: { ...base, name, include: list } }]

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      globals: true,
      restoreMocks: true,
      // Worker threads, not child processes: they start faster and pass messages without serializing
      // them through a pipe. With the docblock files in their environment's project, measured back to
      // back on a busy 2-core machine: 91 CPU-s → 83 CPU-s for the whole run.
      pool: 'threads',
      // Vitest's default leaves one core idle; on a 2-core machine that halves
      // throughput (measured: 76 s with one worker, 46 s with two).
      maxWorkers: '100%',
      projects: [
        { extends: true, test: { name: 'node', ...nodeProject, isolate: false, exclude: [...nodeProject.exclude, ...isolatedNode] } },
        ...isolatedProject('node (isolated)', { environment: 'node' }, isolatedNode),
        { extends: true, test: { name: 'dom', ...domProject, isolate: false, exclude: [...domProject.exclude, ...isolatedDom] } },
        ...isolatedProject('dom (isolated)', { environment: 'jsdom', setupFiles: domProject.setupFiles }, isolatedDom),
      ],
    },
  }),
)
