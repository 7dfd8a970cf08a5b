/**
 * Every URL parameter the pages' sources read by a literal name is in
 * PAGE_PARAMS (e2e/support/page-params.ts), and every name there is still read somewhere: a new
 * `searchParams.get('x')` (or a helper of widget-params.ts) fails here until
 * the page scanner knows it.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { NOT_PAGE_PARAMS, PAGE_PARAMS } from '../../../e2e/support/page-params.ts'

const root = resolve(import.meta.dirname, '../../..')
/** The sources of each page's own code (shared/ holds the API and the SDK, which read request URLs, not the page's). */
const SOURCES = { harness: ['host-harness'], oauth: ['oauth'], widget: ['widget'] } as const
/** URLSearchParams' readers, and widget-params.ts's helpers around them. */
const READ = /\b(?:get|has|getAll|ms|optionalMs|flag|phone)\(\s*'([A-Za-z_][\w-]*)'/g
const READS_URL = /URLSearchParams|searchParams|location\.(?:search|hash)/

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return files(path)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : []
  })
}

function namesRead(dirs: readonly string[]): Set<string> {
  const names = new Set<string>()
  for (const file of dirs.flatMap((dir) => files(resolve(root, dir)))) {
    const text = readFileSync(file, 'utf8')
    if (!READS_URL.test(text)) continue
    for (const match of text.matchAll(READ)) if (!NOT_PAGE_PARAMS.has(match[1]!)) names.add(match[1]!)
  }
  return names
}

describe('PAGE_PARAMS lists every URL parameter the pages read', () => {
  for (const [page, dirs] of Object.entries(SOURCES) as [keyof typeof SOURCES, readonly string[]][]) {
    it(`${page}: every name its sources read is listed`, () => {
      const listed = new Set([...PAGE_PARAMS[page].query, ...PAGE_PARAMS[page].hashRoutes.flatMap((route) => route.params)])
      expect([...namesRead(dirs)].filter((name) => !listed.has(name))).toEqual([])
      expect(listed.size).toBeGreaterThan(0)
    })
  }

  it('every listed name is read by some page source (no stale names)', () => {
    const text = Object.values(SOURCES)
      .flat()
      .flatMap((dir) => files(resolve(root, dir)))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n')
    const listed = Object.values(PAGE_PARAMS).flatMap((page) => [...page.query, ...page.hashRoutes.flatMap((route) => route.params)])
    const imported = new Set(['oauth_callback', 'client_id', 'redirect_uri', 'scope', 'optional_scope', 'state', 'code_challenge', 'code_challenge_method'])
    expect(listed.filter((name) => !imported.has(name) && !text.includes(`'${name}'`))).toEqual([])
  })
})
