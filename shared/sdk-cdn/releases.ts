/**
 * The 0.9.x releases of @hubspot/calling-extensions-sdk, as their `dist/main.js`
 * behaves when a page loads it with a plain <script> tag from a public CDN
 * (https://github.com/HubSpot/calling-extensions-sdk, its release tags and the
 * npm tarballs). Plain data: the CDN build of Ringside's SDK imports it to expose
 * the same globals, and the URL mapping (cdn-urls.ts) to know which versions exist.
 *
 * What the releases differ in:
 * - 0.9.0 to 0.9.2 build `dist/main.js` as CommonJS (webpack `commonjs2`): the
 *   file ends in `module.exports = …`, so a <script> tag throws
 *   "ReferenceError: module is not defined" and defines no global. 0.9.3 builds
 *   it as UMD ("Fix target to umd for main.js bundle", #260): with no CommonJS
 *   or AMD loader it copies the module's enumerable exports onto `self`, i.e.
 *   `window.default` (CallingExtensions), `window.Constants` and
 *   `window.IFrameManager`. `__esModule` is not enumerable, so it is not copied.
 * - `Constants.VERSION` is the package.json version when the build ran, which is
 *   before `npm version` bumped it: 0.9.7 says "0.9.7-beta.0", 0.9.0 "0.8.4-beta.0".
 * - 0.9.4 adds finalizeEngagement and FINALIZE_ENGAGEMENT(_SUCCEEDED|_FAILED);
 *   0.9.5 removes UPDATE_ASSOCIATIONS_FAILED (#274); 0.9.6 adds callTransferred
 *   and CALL_TRANSFERRED (#275).
 */

export const SDK_PACKAGE = '@hubspot/calling-extensions-sdk'

/** The CDN build holds this token where the release goes; the server replaces it with the version it serves. */
export const RELEASE_SLOT = '__RINGSIDE_SDK_RELEASE__'
/**
 * And this one where the version the page asked for goes: the release itself, or the prerelease
 * it stands in for (cdn-urls.ts, resolveSdkRequest). Only [0-9A-Za-z.+-] are ever written here.
 */
export const REQUESTED_SLOT = '__RINGSIDE_SDK_REQUESTED__'

export interface SdkRelease {
  readonly version: string
  /** `Constants.VERSION` of that build. */
  readonly embeddedVersion: string
  /** How `dist/main.js` is wrapped: `commonjs` throws under a <script> tag, `umd` defines the globals. */
  readonly mainScript: 'commonjs' | 'umd'
  /**
   * `tarball`: read from the published package. `tag`: from the release tag's
   * source and build config (the embedded version is the one before the bump there).
   */
  readonly evidence: 'tarball' | 'tag'
}

/** Oldest first. The last one is npm's `latest`. */
export const SDK_RELEASES: readonly SdkRelease[] = [
  { version: '0.9.0', embeddedVersion: '0.8.4-beta.0', mainScript: 'commonjs', evidence: 'tarball' },
  { version: '0.9.1', embeddedVersion: '0.9.1-alpha.1', mainScript: 'commonjs', evidence: 'tag' },
  { version: '0.9.2', embeddedVersion: '0.9.1', mainScript: 'commonjs', evidence: 'tag' },
  { version: '0.9.3', embeddedVersion: '0.9.3-beta.0', mainScript: 'umd', evidence: 'tarball' },
  { version: '0.9.4', embeddedVersion: '0.9.4-beta.0', mainScript: 'umd', evidence: 'tarball' },
  { version: '0.9.5', embeddedVersion: '0.9.4', mainScript: 'umd', evidence: 'tag' },
  { version: '0.9.6', embeddedVersion: '0.9.6-beta.0', mainScript: 'umd', evidence: 'tag' },
  { version: '0.9.7', embeddedVersion: '0.9.7-beta.0', mainScript: 'umd', evidence: 'tarball' },
]

export const LATEST_RELEASE: SdkRelease = SDK_RELEASES[SDK_RELEASES.length - 1] as SdkRelease

/** Message types and send methods that only some releases have: [first release with it, first release without it]. */
export const RELEASE_CHANGES = {
  types: {
    FINALIZE_ENGAGEMENT: ['0.9.4', null],
    FINALIZE_ENGAGEMENT_SUCCEEDED: ['0.9.4', null],
    FINALIZE_ENGAGEMENT_FAILED: ['0.9.4', null],
    CALL_TRANSFERRED: ['0.9.6', null],
    UPDATE_ASSOCIATIONS_FAILED: [null, '0.9.5'],
  },
  methods: {
    finalizeEngagement: ['0.9.4', null],
    callTransferred: ['0.9.6', null],
  },
} as const satisfies Record<'types' | 'methods', Record<string, readonly [string | null, string | null]>>

const order = (version: string) => SDK_RELEASES.findIndex((r) => r.version === version)

/** Whether `release` has a type or method that RELEASE_CHANGES lists as [since, until]. */
export function releaseHas(release: SdkRelease, [since, until]: readonly [string | null, string | null]): boolean {
  const at = order(release.version)
  return (since === null || at >= order(since)) && (until === null || at < order(until))
}

export function releaseOf(version: string): SdkRelease | undefined {
  return SDK_RELEASES.find((r) => r.version === version)
}
