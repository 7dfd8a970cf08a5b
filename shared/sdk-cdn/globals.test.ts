/**
 * The CDN build's exports against the npm package's: the Constants object equal
 * key for key, the same send methods, per release. The npm package in
 * node_modules is the latest release; other releases are compared when
 * $CALLING_SDK_RELEASES names a folder of unpacked npm tarballs (unpacked-releases.ts).
 * The served file itself is compared in Chromium by e2e/sdk-cdn.spec.ts.
 */
import { runInNewContext } from 'node:vm'
import * as npm from '@hubspot/calling-extensions-sdk'
import { releaseExports } from './globals.ts'
import { LATEST_RELEASE, releaseOf, SDK_RELEASES } from './releases.ts'
import { UNPACKED_RELEASES_HINT, unpackedReleases } from './unpacked-releases.ts'

/** Public methods of a class, through its prototype chain (accessors left out). */
function methodsOf(cls: { prototype: object }): string[] {
  const names = new Set<string>()
  // Up to, not including, the realm's Object.prototype (the last one before null).
  for (let proto: object | null = cls.prototype; proto && Object.getPrototypeOf(proto) !== null; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, name)!
      if (name !== 'constructor' && 'value' in descriptor) names.add(name)
    }
  }
  // A method a release does not have is shadowed by an own `undefined`.
  return [...names].filter((name) => typeof (cls.prototype as Record<string, unknown>)[name] === 'function').sort()
}

/**
 * Known differences of Ringside's class: `destroy()` is its own addition; the
 * package's `onMessageHandler(event)` is its internal message listener, which
 * Ringside keeps private.
 */
const OURS_ONLY = ['destroy']
const NPM_ONLY = ['onMessageHandler']

function expectSameMethods(ours: { prototype: object }, theirs: { prototype: object }) {
  expect(methodsOf(ours)).toEqual([...methodsOf(theirs).filter((m) => !NPM_ONLY.includes(m)), ...OURS_ONLY].sort())
}

describe(`the CDN build's exports match the npm package (${LATEST_RELEASE.version}, node_modules)`, () => {
  const ours = releaseExports(LATEST_RELEASE)

  it('Constants, key for key and value for value', () => {
    expect(JSON.parse(JSON.stringify(ours.Constants))).toEqual(JSON.parse(JSON.stringify(npm.Constants)))
  })

  it('the same send methods on default (CallingExtensions)', () => {
    expectSameMethods(ours.default, npm.default as unknown as { prototype: object })
  })

  it('default is a working CallingExtensions; IFrameManager is a class that says why it is not there', () => {
    const sdk = new ours.default({ eventHandlers: {} })
    expect(typeof sdk.outgoingCall).toBe('function')
    sdk.destroy()
    expect(typeof ours.IFrameManager).toBe('function')
    expect(() => new ours.IFrameManager({})).toThrow(/no IFrameManager .* the harness is the host/)
  })

  it('a release without a method has none: calling it fails as with that release', () => {
    const old = releaseExports(releaseOf('0.9.3')!)
    const sdk = new old.default({ eventHandlers: {} }) as unknown as Record<string, unknown> & { destroy(): void }
    expect(sdk.finalizeEngagement).toBeUndefined()
    expect(sdk.callTransferred).toBeUndefined()
    expect(old.Constants.messageType.UPDATE_ASSOCIATIONS_FAILED).toBe('UPDATE_ASSOCIATIONS_FAILED')
    expect(old.Constants.messageType.FINALIZE_ENGAGEMENT).toBeUndefined()
    sdk.destroy()
  })
})

const unpacked = unpackedReleases()

describe('every other release, from $CALLING_SDK_RELEASES', () => {
  it('names a folder of unpacked tarballs', ({ skip }) => {
    if (unpacked.versions.length === 0) skip(UNPACKED_RELEASES_HINT)
    expect(unpacked.versions.filter((v) => releaseOf(v) === undefined), 'releases Ringside does not list').toEqual([])
  })

  for (const { version } of SDK_RELEASES) {
    it(`${version}: Constants and send methods`, ({ skip }) => {
      if (!unpacked.versions.includes(version)) skip(`${version} is not in $CALLING_SDK_RELEASES`)
      // Loaded as CommonJS (every release's main.js supports that) in a realm of its own; nothing runs at load but the module's body.
      const module = { exports: {} as { Constants: unknown; default: { prototype: object } } }
      runInNewContext(unpacked.mainScript(version), { module, exports: module.exports, self: {} })
      const theirs = module.exports
      const ours = releaseExports(releaseOf(version)!)
      expect(JSON.parse(JSON.stringify(ours.Constants))).toEqual(JSON.parse(JSON.stringify(theirs.Constants)))
      expectSameMethods(ours.default, theirs.default)
    })
  }
})
