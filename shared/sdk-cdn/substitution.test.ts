/**
 * Ringside's CDN build standing in for a prerelease pin: the widget side's SYNC_ACK says so
 * (announceSubstitution, set by the build's servedRelease), and the host side reads it back.
 */
import { announceSubstitution, answerSync } from '../protocol/index.ts'
import { substitutionInAck } from './cdn-urls.ts'

const HOST = 'https://app.crm.test'
const sync = { type: 'SYNC', messageId: 'host_1', hostUrl: HOST, portalId: 1, userId: 2, ownerId: 3, iframeLocation: 'widget', usesCallingWindow: false }

it('without an announcement the SYNC_ACK has no substitution; with one it names the pin and the release', () => {
  const before = answerSync(sync, HOST, null, false)
  expect(before.ok && substitutionInAck(before.ack)).toBeNull()
  announceSubstitution({ requested: '0.9.3-alpha.0', served: '0.9.3' })
  const after = answerSync(sync, HOST, null, false)
  expect(after.ok && after.ack).toMatchObject({ type: 'SYNC_ACK', messageId: 'host_1', ringsideSdkSubstitution: { requested: '0.9.3-alpha.0', served: '0.9.3' } })
  expect(after.ok && substitutionInAck(after.ack)).toEqual({ requested: '0.9.3-alpha.0', served: '0.9.3' })
})
