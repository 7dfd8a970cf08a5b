/**
 * For tests: the published releases of the SDK that $CALLING_SDK_RELEASES holds, a
 * folder of unpacked npm tarballs (<folder>/<version>/package/dist/main.js, e.g.
 * from `npm pack @hubspot/calling-extensions-sdk@0.9.3` and `tar -xzf`). None is
 * part of this repository; without the variable the comparisons are skipped.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export const UNPACKED_RELEASES_HINT = 'set CALLING_SDK_RELEASES to a folder of unpacked npm tarballs of @hubspot/calling-extensions-sdk (<version>/package/dist/main.js) to compare them'

export interface UnpackedReleases {
  readonly versions: readonly string[]
  /** The release's own dist/main.js. */
  mainScript(version: string): string
}

export function unpackedReleases(dir: string | undefined = process.env.CALLING_SDK_RELEASES): UnpackedReleases {
  const file = (version: string) => join(dir ?? '', version, 'package', 'dist', 'main.js')
  const versions = dir && existsSync(dir) ? readdirSync(dir).filter((version) => existsSync(file(version))).sort() : []
  return { versions, mainScript: (version) => readFileSync(file(version), 'utf8') }
}
