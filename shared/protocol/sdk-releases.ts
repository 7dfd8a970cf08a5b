/**
 * What a SYNC_ACK says of the published SDK release that sent it. Plain data, no schema.
 *
 * Every release copies the SYNC into its SYNC_ACK and adds `version` and `debugMode`
 * (IFrameManager onMessage). Up to 0.1.x `version` is the constant "0.0.1" (Constants.VERSION
 * became the package's own version in 0.2.0); 0.0.10 added `iFrameUrl`. So a SYNC_ACK with
 * version "0.0.1" and no iFrameUrl is SDK 0.0.6's, the release without callCompleted: its
 * calls end with CALL_ENDED.
 */
import { isRecord } from '../crm/guards.ts'

/** The `version` every SDK release up to 0.1.x sends in SYNC_ACK. */
export const LEGACY_ACK_VERSION = '0.0.1'

/** True for a SYNC_ACK of SDK 0.0.6, which has no callCompleted (its calls end with CALL_ENDED). */
export function ackHasNoCallCompleted(ack: unknown): boolean {
  return isRecord(ack) && ack.version === LEGACY_ACK_VERSION && !Object.hasOwn(ack, 'iFrameUrl')
}
