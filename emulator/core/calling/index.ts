/**
 * The calling-extension resources beyond the widget settings (those are in
 * ../calling-settings.ts): recordings, transcripts, inbound calls and the
 * channel connection, plus the emulator's view of one call's media for the
 * harness:
 *
 * - GET /_ringside/v1/calls/{callId}/media → 200 `{recording, transcript}`:
 *   the state of the call's recording (never the vendor's URL; `audioUrl` is
 *   Ringside's own player path) and its transcript, each null when there is none;
 * - GET /_ringside/v1/calling/settings → 200 `{recording, channelConnection}`:
 *   the app's recording and channel-connection settings, each null when there
 *   are none (the real GETs answer 404 then, which a page would log as an error).
 */
import { notFound } from '../http/errors.ts'
import { json } from '../http/http.ts'
import type { Route, ServiceDeps } from '../http/route.ts'
import { ACCOUNT } from '../http/auth.ts'
import { channelConnectionRoutes, channelConnectionTable } from './channel-connection.ts'
import { inboundCallRoutes } from './inbound-call.ts'
import { recordingRoutes, recordingSettingsTable, recordingsTable, recordingStatus } from './recordings.ts'
import { transcriptOfCall, transcriptRoutes } from './transcripts.ts'

/** The emulator's view of the app's recording and channel-connection settings. */
export const CALLING_EXTENSION_SETTINGS_PATH = '/_ringside/v1/calling/settings'

export function callingExtensionRoutes(deps: ServiceDeps): Route[] {
  const recordings = recordingsTable(deps.db)
  return [
    ...recordingRoutes(deps),
    ...transcriptRoutes(deps),
    ...inboundCallRoutes(deps),
    ...channelConnectionRoutes(deps),
    {
      method: 'GET',
      path: CALLING_EXTENSION_SETTINGS_PATH,
      auth: { kind: 'none' },
      handler() {
        const recording = recordingSettingsTable(deps.db).get(String(ACCOUNT.appId))
        return json({
          recording: recording ? { urlToRetrieveAuthedRecording: recording.urlToRetrieveAuthedRecording } : null,
          channelConnection: channelConnectionTable(deps.db).get(String(ACCOUNT.appId)) ?? null,
        })
      },
    },
    {
      method: 'GET',
      path: '/_ringside/v1/calls/:callId/media',
      auth: { kind: 'none' },
      handler(ctx) {
        const callId = ctx.params.callId!
        if (!deps.objects.get('calls', callId)) throw notFound(`No call with id ${callId}.`)
        const recording = recordings.get(callId)
        return json({ recording: recording ? recordingStatus(recording) : null, transcript: transcriptOfCall(deps.db, callId) ?? null })
      },
    },
  ]
}
