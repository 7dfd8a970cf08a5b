/**
 * The calling SDK's routes, loaded by widgets on other origins (so served
 * with `Access-Control-Allow-Origin: *` and exempt from the page servers'
 * same-origin rule, emulator/node/guard.ts).
 *
 * /sdk/npm/@hubspot/calling-extensions-sdk@<version>/<file>: Ringside's SDK as the
 * public CDNs serve the npm package (the mapping: shared/sdk-cdn/cdn-urls.ts). The
 * files are the CDN builds in dist/sdk/cdn/ (`npm run build`), with the release
 * written in; an unknown version or file gets a 404 whose body says what is served.
 * The files come from the build, or from the sources built on demand when the
 * server serves the sources (SdkFiles).
 */
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { ServerResponse } from 'node:http'
import { parseServedPath, requestedText, resolveSdkRequest, substitutionSentence, type CdnFile } from '../../../shared/sdk-cdn/cdn-urls.ts'
import { RELEASE_SLOT, REQUESTED_SLOT } from '../../../shared/sdk-cdn/releases.ts'
import { PACKAGE_VERSION } from '../package-info.ts'

/** The build of each file under dist/sdk/ (package/sdk-cdn-script.ts, package/sdk-cdn-module.ts; see sdk-builds.ts). */
const BUILD_FILES: Readonly<Record<CdnFile, string>> = { 'main.js': 'cdn/main.js', 'main.esm.js': 'cdn/main.esm.js' }

/**
 * Where the SDK's files come from, by their path under dist/sdk/: the build
 * (`npm run build`, the package), or the sources built on demand (npm start,
 * sdk-dev-build.ts). null: there is no such file.
 */
export interface SdkFiles {
  read(file: string): Promise<Uint8Array | null>
  /** Whether a file may change under the same URL (built from sources being edited): then never cached as immutable. */
  readonly changing: boolean
}

/** The files of the build in `distRoot`/sdk/; a file the build lacks is read from `fallback` (the sources, built on demand). */
export function builtSdkFiles(distRoot: string, fallback?: SdkFiles): SdkFiles {
  return {
    changing: false,
    async read(file) {
      try {
        return await readFile(resolve(distRoot, 'sdk', file))
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
        return fallback ? fallback.read(file) : null
      }
    },
  }
}

/** Answer with `file` from `files`, or the sentence for a missing build or a build that failed. */
function answer(res: ServerResponse, files: SdkFiles, file: string, missing: string, send: (contents: Uint8Array) => void): void {
  files.read(file).then(
    (contents) => (contents === null ? text(res, 404, missing) : send(contents)),
    (error: unknown) => text(res, 500, `The calling SDK could not be built: ${error instanceof Error ? error.message : String(error)}`),
  )
}

function text(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'access-control-allow-origin': '*', 'cache-control': 'no-store' })
  res.end(`${body}\n`)
}

/** Answers `path` if it is under /sdk/npm/; false otherwise. */
export function serveCdnSdk(path: string, res: ServerResponse, files: SdkFiles): boolean {
  const request = parseServedPath(path)
  if (!request) return false
  const resolution = resolveSdkRequest(request)
  if (!resolution.ok) {
    text(res, 404, resolution.message)
    return true
  }
  const exact = request.version === resolution.release.version
  answer(res, files, BUILD_FILES[resolution.file], 'The CDN build of the calling SDK is missing: run `npm run build`.', (contents) => {
    res.writeHead(200, {
      'content-type': 'text/javascript; charset=utf-8',
      // As on the CDNs: an exact version never changes; latest and ranges move.
      'cache-control': exact && !files.changing ? 'public, max-age=31536000, immutable' : 'no-cache',
      // Loaded by widgets on other origins, also with <script crossorigin> or import().
      'access-control-allow-origin': '*',
      ...(resolution.substitution !== undefined ? { 'x-ringside-sdk-substitution': substitutionSentence(resolution.substitution) } : {}),
    })
    res.end(Buffer.from(contents).toString('utf8').replaceAll(RELEASE_SLOT, resolution.release.version).replaceAll(REQUESTED_SLOT, requestedText(resolution)))
  })
  return true
}

/**
 * The calling SDK at a versioned URL, as the real CRM serves it from its CDN:
 * `/sdk/<version>/calling-extensions.js` (ES module) and
 * `/sdk/<version>/calling-extensions.umd.js` (a classic script: UMD, global
 * `CallingExtensionsSdk`), with `latest` for the current version. The files
 * are the package's browser build of the SDK (dist/sdk/, `npm run build`).
 */
const SDK_ROUTE = /^\/sdk\/([^/]+)\/(calling-extensions(?:\.umd)?\.js(?:\.map)?)$/

export function serveSdk(path: string, res: ServerResponse, files: SdkFiles): boolean {
  const match = SDK_ROUTE.exec(path)
  if (!match) return false
  const [, version, file] = match as unknown as [string, string, string]
  if (version !== PACKAGE_VERSION && version !== 'latest') {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
    res.end(`This Ringside serves the calling SDK version ${PACKAGE_VERSION} only: /sdk/${PACKAGE_VERSION}/${file} (or /sdk/latest/${file}).\n`)
    return true
  }
  answer(res, files, file, 'The SDK build is missing: run `npm run build`.', (contents) => {
    res.writeHead(200, {
      'content-type': file.endsWith('.map') ? 'application/json' : 'text/javascript; charset=utf-8',
      // A versioned URL never changes; `latest` moves with the package.
      'cache-control': version === 'latest' || files.changing ? 'no-cache' : 'public, max-age=31536000, immutable',
      // Loaded by widgets on other origins, as from a CDN.
      'access-control-allow-origin': '*',
    })
    res.end(contents)
  })
  return true
}

/** Whether `path` is one of the SDK's routes (serveSdk, serveCdnSdk). */
export function isSdkPath(path: string): boolean {
  return SDK_ROUTE.test(path) || parseServedPath(path) !== null
}
