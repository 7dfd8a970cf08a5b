import { readdirSync, readFileSync } from 'node:fs'
import { defineConfig, mergeConfig } from 'vitest/config'
import viteConfig from './vite.config.ts'

/**
 * Two environments: the DOM-free core of shared/api and shared/traffic (and the server, scripts and
 * package) run under plain Node (which proves it needs no DOM); everything else runs under jsdom.
 *
 * Each worker runs its files one after another in one module graph and one environment
 * (`isolate: false`): importing the sources and creating jsdom once per worker instead of once per
 * file halves the run (measured back to back on 2 cores: the dom files of host-harness/panels and
 * host-harness/calling 37 s → 9 s, the node project 135 s → 90 s). A file that replaces modules
 * (vi.mock, vi.doMock, vi.resetModules) or the environment (vi.stubEnv) would leak that into the files
 * after it, so such files are found here, by their text, and run isolated, each in a fresh module graph
 * and environment, in projects of their own ("node (isolated)", "dom (isolated)"). So does a node file
 * that stubs globals (vi.stubGlobal); a dom file that does shares its worker, since the dom setup file
 * (scripts/vitest-setup.ts) puts every stubbed global back after each test. That setup file also
 * empties the storage and the document before each file.
 */
const NODE_DIRS = ['shared/api', 'shared/traffic', 'server', 'scripts', 'e2e/kit', 'package']
const DOM_DIRS = ['shared', 'widget', 'host-harness']
const REPLACES_MODULES = /\bvi\.(mock|doMock|stubEnv|resetModules)\(/
const STUBS_GLOBALS = /\bvi\.stubGlobal\(/

function testFiles(dirs: readonly string[], pattern: RegExp): string[] {
  return dirs.flatMap((dir) =>
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((file) => pattern.test(file) && !file.split('/').includes('node_modules'))
      .map((file) => `${dir}/${file}`),
  )
}
const underNode = (file: string) => NODE_DIRS.some((dir) => file.startsWith(`${dir}/`))
const nodeFiles = testFiles(NODE_DIRS, /\.test\.ts$/)
const domFiles = testFiles(DOM_DIRS, /\.test\.tsx?$/).filter((file) => !underNode(file))
const isolated = (files: string[], patterns: RegExp[]) =>
  files.filter((file) => {
    const text = readFileSync(file, 'utf8')
    return patterns.some((pattern) => pattern.test(text))
  })
const isolatedNode = isolated(nodeFiles, [REPLACES_MODULES, STUBS_GLOBALS])
const isolatedDom = isolated(domFiles, [REPLACES_MODULES])

const nodeProject = { environment: 'node' as const, include: NODE_DIRS.map((dir) => `${dir}/**/*.test.ts`) }
const domProject = {
  environment: 'jsdom' as const,
  include: DOM_DIRS.map((dir) => `${dir}/**/*.test.{ts,tsx}`),
  exclude: [...NODE_DIRS.map((dir) => `${dir}/**`), '**/node_modules/**'],
  setupFiles: ['scripts/vitest-setup.ts'],
}
/** A project of the isolated files, when there are any (an empty `include` would mean Vitest's default). */
const isolatedProject = (name: string, base: { environment: 'node' | 'jsdom'; setupFiles?: string[] }, files: string[]) =>
  files.length === 0 ? [] : [{ extends: true as const, test: { ...base, name, include: files } }]

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      globals: true,
      restoreMocks: true,
      // Vitest's default leaves one core idle; on a 2-core machine that halves
      // throughput (measured: 76 s with one worker, 46 s with two).
      maxWorkers: '100%',
      projects: [
        { extends: true, test: { name: 'node', ...nodeProject, isolate: false, exclude: ['**/node_modules/**', ...isolatedNode] } },
        ...isolatedProject('node (isolated)', { environment: 'node' }, isolatedNode),
        { extends: true, test: { name: 'dom', ...domProject, isolate: false, exclude: [...domProject.exclude, ...isolatedDom] } },
        ...isolatedProject('dom (isolated)', { environment: 'jsdom', setupFiles: domProject.setupFiles }, isolatedDom),
      ],
    },
  }),
)
