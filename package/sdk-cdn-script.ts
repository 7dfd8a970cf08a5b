/**
 * Ringside's SDK as one release's `dist/main.js` of @hubspot/calling-extensions-sdk
 * on a public CDN, loaded by a plain <script> tag (see shared/sdk-cdn/releases.ts).
 * The server writes the release into RELEASE_SLOT when it serves the file.
 */
import { servedRelease } from '../shared/sdk-cdn/globals.ts'

const { release, api } = servedRelease()
const scope = globalThis as unknown as { module?: { exports?: unknown }; exports?: unknown; define?: ((deps: string[], factory: () => unknown) => void) & { amd?: unknown } }
const commonJs = typeof scope.module === 'object' && scope.module !== null

if (release.mainScript === 'commonjs') {
  // That release's file assigns module.exports and nothing else: without a CommonJS loader it throws.
  if (!commonJs) throw new ReferenceError('module is not defined')
  scope.module!.exports = api
} else if (commonJs && typeof scope.exports === 'object') {
  scope.module!.exports = api
} else if (typeof scope.define === 'function' && scope.define.amd) {
  scope.define([], () => api)
} else {
  // webpack's UMD without a loader: every enumerable export becomes a property of `self`.
  const target = (typeof scope.exports === 'object' && scope.exports !== null ? scope.exports : self) as Record<string, unknown>
  for (const key of Object.keys(api)) target[key] = api[key as keyof typeof api]
}
