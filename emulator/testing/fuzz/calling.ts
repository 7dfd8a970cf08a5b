/**
 * Valid requests for the calling-extension routes (recordings, transcripts,
 * inbound calls, channel connection), for the route fuzz. The fuzz's service
 * reaches the pretend vendor of calling/testing.ts through its outbound fetch,
 * so the recording and channel-connection routes succeed for real.
 */
import { ACCOUNT } from '../../core/http/auth.ts'
import { CALL_STATUSES } from '../../../shared/crm/call-status.ts'
import { VENDOR_NUMBERS_URL, VENDOR_RECORDING_ENDPOINT } from '../calling-vendor.ts'
import { CHANNEL_CONNECTION_CHECK_PATH } from '../../core/calling/channel-connection.ts'
import type { Route } from '../../core/http/route.ts'
import { toRequest, type RequestSpec } from './hostile.ts'
import type { Dice, Fixture, Recipe } from './recipe-kit.ts'

const json = (value: unknown) => ({ text: JSON.stringify(value), type: 'application/json' })
const PAT = { authorization: `Bearer ${ACCOUNT.privateAppToken}` }
const DEV: Array<[string, string]> = [['hapikey', ACCOUNT.developerApiKey]]
const RECORDING_SETTINGS = `/crm/v3/extensions/calling/${ACCOUNT.appId}/settings/recording`
const CHANNEL_SETTINGS = `/crm/v3/extensions/calling/${ACCOUNT.appId}/settings/channel-connection`

async function send(fx: Fixture, spec: RequestSpec): Promise<any> {
  const response = await fx.service.handle(toRequest(spec))
  const text = await response.text()
  return text ? JSON.parse(text) : undefined
}

/** Recording settings exist (created if missing). */
async function recordingSettings(fx: Fixture): Promise<void> {
  await send(fx, { method: 'POST', path: RECORDING_SETTINGS, query: DEV, body: json({ urlToRetrieveAuthedRecording: VENDOR_RECORDING_ENDPOINT }) })
}

/** A new call a calling app logged, with the properties its recording needs. */
async function appCall(fx: Fixture, dice: Dice): Promise<string> {
  const created = await send(fx, {
    method: 'POST',
    path: '/crm/v3/objects/calls',
    headers: PAT,
    body: json({ properties: { hs_call_external_id: `ext-${dice.int(1e6)}`, hs_call_app_id: String(ACCOUNT.appId), hs_call_source: 'INTEGRATIONS_PLATFORM' } }),
  })
  return created.id as string
}

const utterances = (dice: Dice) => {
  let at = dice.int(1000)
  return Array.from({ length: 1 + dice.int(4) }, (_, i) => {
    const start = at
    at += 1 + dice.int(3000)
    return { speaker: { id: String(i % 2), name: i % 2 ? 'Caller' : 'Agent' }, text: `Utterance ${i}`, startTimeMillis: start, endTimeMillis: at }
  })
}

export function callingRecipe(route: Route): Recipe {
  const key = `${route.method} ${route.path}`
  return async (fx, dice) => {
    switch (key) {
      case 'POST /crm/v3/extensions/calling/:appId/settings/recording':
        return { method: 'POST', path: RECORDING_SETTINGS, query: DEV, body: json({ urlToRetrieveAuthedRecording: `https://vendor.example/r${dice.int(100)}/%s` }) }
      case 'GET /crm/v3/extensions/calling/:appId/settings/recording':
        await recordingSettings(fx)
        return { method: 'GET', path: RECORDING_SETTINGS, query: DEV }
      case 'PATCH /crm/v3/extensions/calling/:appId/settings/recording':
        await recordingSettings(fx)
        return { method: 'PATCH', path: RECORDING_SETTINGS, query: DEV, body: json({ urlToRetrieveAuthedRecording: dice.pick([VENDOR_RECORDING_ENDPOINT, 'http://127.0.0.1:3000/recordings/%s']) }) }
      case 'POST /crm/v3/extensions/calling/recordings/ready': {
        await recordingSettings(fx)
        return { method: 'POST', path: route.path, headers: PAT, body: json({ engagementId: Number(await appCall(fx, dice)) }) }
      }
      case 'GET /_ringside/v1/calls/:callId/recording': {
        await send(fx, { method: 'PATCH', path: RECORDING_SETTINGS, query: DEV, body: json({ urlToRetrieveAuthedRecording: VENDOR_RECORDING_ENDPOINT }) })
        await recordingSettings(fx)
        const callId = await appCall(fx, dice)
        await send(fx, { method: 'POST', path: '/crm/v3/extensions/calling/recordings/ready', headers: PAT, body: json({ engagementId: Number(callId) }) })
        const start = dice.int(4000)
        const headers: Record<string, string> = dice.int(3) === 0 ? {} : { range: `bytes=${start}-${start + dice.int(200)}` }
        return { method: 'GET', path: `/_ringside/v1/calls/${callId}/recording`, headers }
      }
      case 'GET /_ringside/v1/calling/settings':
        if (dice.int(2) === 0) await recordingSettings(fx)
        return { method: 'GET', path: route.path }
      case 'GET /_ringside/v1/calls/:callId/media':
        return { method: 'GET', path: `/_ringside/v1/calls/${await appCall(fx, dice)}/media` }
      case 'POST /crm/v3/extensions/calling/transcripts':
        return { method: 'POST', path: route.path, headers: PAT, body: json({ engagementId: Number(await appCall(fx, dice)), transcriptCreateUtterances: utterances(dice) }) }
      case 'GET /crm/v3/extensions/calling/transcripts/:transcriptId':
      case 'DELETE /crm/v3/extensions/calling/transcripts/:transcriptId': {
        const created = await send(fx, {
          method: 'POST',
          path: '/crm/v3/extensions/calling/transcripts',
          headers: PAT,
          body: json({ engagementId: Number(await appCall(fx, dice)), transcriptCreateUtterances: utterances(dice) }),
        })
        return { method: route.method, path: `/crm/v3/extensions/calling/transcripts/${created.id}`, headers: PAT }
      }
      case 'POST /crm/v3/extensions/calling/inbound-call':
        return {
          method: 'POST',
          path: route.path,
          headers: PAT,
          body: json({
            createEngagement: dice.int(3) !== 0,
            engagementProperties: dice.int(2) === 0 ? {} : { hs_call_title: 'Fuzz inbound' },
            externalCallId: `in-${dice.int(1e6)}`,
            finalCallStatus: dice.pick(CALL_STATUSES),
            fromNumber: { e164Number: `+1617555010${dice.int(10)}`, phoneNumberType: 'MOBILE' },
            toNumber: { e164Number: '+18001231234', phoneNumberType: 'FIXED_LINE' },
            potentialRecipientUserIds: [ACCOUNT.userId],
            ...(dice.int(2) === 0 && { durationSeconds: dice.int(3600), callStartedTimestamp: '2026-01-15T11:00:00Z' }),
          }),
        }
      case 'POST /crm/v3/extensions/calling/:appId/settings/channel-connection':
        await send(fx, { method: 'DELETE', path: CHANNEL_SETTINGS, query: DEV })
        return { method: 'POST', path: CHANNEL_SETTINGS, query: DEV, body: json({ url: VENDOR_NUMBERS_URL, isReady: dice.int(2) === 0 }) }
      case 'GET /crm/v3/extensions/calling/:appId/settings/channel-connection':
      case 'PATCH /crm/v3/extensions/calling/:appId/settings/channel-connection':
      case 'DELETE /crm/v3/extensions/calling/:appId/settings/channel-connection':
        await send(fx, { method: 'POST', path: CHANNEL_SETTINGS, query: DEV, body: json({ url: VENDOR_NUMBERS_URL, isReady: true }) })
        return { method: route.method, path: CHANNEL_SETTINGS, query: DEV, ...(route.method === 'PATCH' && { body: json({ isReady: dice.int(2) === 0 }) }) }
      case `POST ${CHANNEL_CONNECTION_CHECK_PATH}`:
        if (dice.int(2) === 0) await send(fx, { method: 'POST', path: CHANNEL_SETTINGS, query: DEV, body: json({ url: VENDOR_NUMBERS_URL, isReady: true }) })
        return { method: 'POST', path: route.path }
    }
    return undefined
  }
}
