/**
 * What one release's `dist/main.js` exports, built from Ringside's SDK: the
 * `CallingExtensions` class as `default`, the `Constants` object and
 * `IFrameManager`, shaped as that release's own (releases.ts says how they differ).
 * The CDN build of the SDK (package/sdk-cdn-script.ts, package/sdk-cdn-module.ts)
 * exposes exactly these.
 */
import { CATALOGUE, CallingExtensions, callEndStatus, callEndingStatus, callInProgressStatus, callRingingStatus, callStatus, callerIdTypes, errorType } from '../protocol/index.ts'
import { announceSubstitution } from '../protocol/index.ts'
import { RELEASE_CHANGES, RELEASE_SLOT, REQUESTED_SLOT, SDK_PACKAGE, releaseHas, releaseOf, type SdkRelease } from './releases.ts'

/** The npm package's `Constants`, as its releases define it. */
export interface NpmConstants {
  VERSION: string
  debugMessageType: Record<string, string>
  thirdPartyToHostEvents: Record<string, string>
  messageType: Record<string, string>
  messageHandlerNames: Record<string, string>
  errorType: Record<string, string>
  callStatus: Record<string, string>
  callRingingStatus: Record<string, string>
  callInProgressStatus: Record<string, string>
  callEndingStatus: Record<string, string>
  callEndStatus: Record<string, string>
  CONTACT: string
  COMPANY: string
  callerIdTypes: Record<string, string>
}

export interface ReleaseExports {
  default: typeof CallingExtensions
  Constants: NpmConstants
  IFrameManager: new (options?: unknown) => never
}

/** The labels the npm package's logDebugMessage takes as `type`. */
const DEBUG_MESSAGE_TYPE = { FROM_HUBSPOT: 'From HubSpot', TO_HUBSPOT: 'To HubSpot', GENERIC_MESSAGE: 'Generic Message' }

/**
 * Types the package's Constants.messageType lists that Ringside's catalogue has no
 * entry for: the host's SYNC_ACK_FAILED and UNLOADING are never posted to a widget.
 */
const CONSTANTS_ONLY_TYPES = ['SYNC_ACK_FAILED', 'UNLOADING']
/** Widget → host types the package lists in messageType but not in thirdPartyToHostEvents. */
const NOT_THIRD_PARTY_EVENTS = new Set(['ERROR', 'SET_WIDGET_URL'])
/** End statuses the SDK's types allow that Constants.callEndStatus does not list. */
const TYPED_ONLY_END_STATUSES = new Set(['REJECTED', 'MISSED'])
/** A type that a release had and Ringside's catalogue has dropped: [type, handler]. */
const REMOVED_TYPES: Record<string, string> = { UPDATE_ASSOCIATIONS_FAILED: 'onUpdateAssociationsFailed' }

/** The package's status maps use `INTERNAL_<status>` keys. */
function internal(values: Record<string, string>, skip: ReadonlySet<string> = new Set()): Record<string, string> {
  return Object.fromEntries(Object.values(values).filter((v) => !skip.has(v)).map((v) => [`INTERNAL_${v}`, v]))
}

function typeIn(release: SdkRelease, type: string): boolean {
  const range = (RELEASE_CHANGES.types as Record<string, readonly [string | null, string | null]>)[type]
  return range === undefined || releaseHas(release, range)
}

export function releaseConstants(release: SdkRelease): NpmConstants {
  const entries = Object.values(CATALOGUE).filter((e) => typeIn(release, e.type))
  const removed = Object.keys(REMOVED_TYPES).filter((t) => typeIn(release, t))
  const same = (types: readonly string[]) => Object.fromEntries(types.map((t) => [t, t]))
  const handlers: Record<string, string> = {}
  for (const e of entries) if ('handler' in e && e.handler) handlers[e.type] = e.handler
  for (const t of removed) handlers[t] = REMOVED_TYPES[t] as string
  return {
    VERSION: release.embeddedVersion,
    debugMessageType: { ...DEBUG_MESSAGE_TYPE },
    thirdPartyToHostEvents: same(entries.filter((e) => e.direction === 'widget-to-host' && !NOT_THIRD_PARTY_EVENTS.has(e.type)).map((e) => e.type)),
    messageType: same([...entries.map((e) => e.type), ...removed, ...CONSTANTS_ONLY_TYPES]),
    messageHandlerNames: handlers,
    errorType: { ...errorType },
    callStatus: internal(callStatus),
    callRingingStatus: internal(callRingingStatus),
    callInProgressStatus: internal(callInProgressStatus),
    callEndingStatus: internal(callEndingStatus),
    callEndStatus: internal(callEndStatus, TYPED_ONLY_END_STATUSES),
    CONTACT: callerIdTypes.CONTACT,
    COMPANY: callerIdTypes.COMPANY,
    callerIdTypes: { ...callerIdTypes },
  }
}

/**
 * The release's CallingExtensions: Ringside's, without the send methods that
 * release did not have yet (calling one throws "… is not a function", as there).
 */
function releaseClass(release: SdkRelease): typeof CallingExtensions {
  const Base = CallingExtensions
  const Release = class CallingExtensions extends Base {}
  for (const [method, range] of Object.entries(RELEASE_CHANGES.methods)) {
    if (!releaseHas(release, range)) Object.defineProperty(Release.prototype, method, { value: undefined, writable: true, configurable: true })
  }
  return Release
}

/**
 * The package's IFrameManager is its host side (it creates the widget's iframe and
 * runs the handshake from the CRM's page). In Ringside the harness is the host, so
 * the CDN build names it and refuses to construct it, saying what to use instead.
 */
class IFrameManager {
  constructor() {
    throw new Error("Ringside's CDN build of the calling SDK has no IFrameManager (the CRM's side of the SDK): in Ringside the harness is the host. Host code can use CallingHost from ringside/sdk/host.")
  }
}

export function releaseExports(release: SdkRelease): ReleaseExports {
  return { default: releaseClass(release), Constants: releaseConstants(release), IFrameManager: IFrameManager as unknown as ReleaseExports['IFrameManager'] }
}

/**
 * In the CDN build: the release the server wrote into RELEASE_SLOT, and its exports. When the
 * page pinned a prerelease that this release stands in for (REQUESTED_SLOT differs), it says so
 * in the widget's console and announces it in its SYNC_ACK, for the harness and check-widget.
 */
export function servedRelease(): { release: SdkRelease; api: ReleaseExports } {
  const release = releaseOf(RELEASE_SLOT)
  if (!release) throw new Error("Ringside's CDN build of the calling SDK was served without its release: load it from Ringside's /sdk/npm/ path.")
  // The server writes both slots (emulator/node/pages/sdk-cdn.ts); unwritten, RELEASE_SLOT names no release and this threw above.
  const requested: string = REQUESTED_SLOT
  if (requested !== release.version) {
    announceSubstitution({ requested, served: release.version })
    console.warn(`[ringside] ${SDK_PACKAGE}@${requested} is a prerelease Ringside does not hold: this is its release ${release.version}.`)
  }
  return { release, api: releaseExports(release) }
}
