/**
 * Facts about this Ringside installation that every command needs, kept apart
 * from the server so that the `ringside` CLI can print its version and parse
 * its options without loading the server.
 */
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'

/** The folder of Ringside's package.json, found upwards from this module (the sources, or a bundle of them under node_modules/.cache). */
export const REPO_ROOT = findRepoRoot(import.meta.dirname)

function findRepoRoot(start: string): string {
  let dir = start
  // A path has finitely many parents; the loop ends at the file system's root at the latest.
  for (;;) {
    const manifest = resolve(dir, 'package.json')
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'ringside') return dir
    const parent = resolve(dir, '..')
    if (parent === dir) throw new Error(`Ringside's package.json was not found above ${start}.`)
    dir = parent
  }
}

/** The package's version (package.json): the version of the SDK build served under /sdk/. */
export const PACKAGE_VERSION: string = (JSON.parse(readFileSync(resolve(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version
