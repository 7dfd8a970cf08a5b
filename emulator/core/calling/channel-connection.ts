/**
 * Channel connection: how the CRM learns which of a calling app's phone
 * numbers can be connected to a help desk as a channel
 * (https://developers.hubspot.com/docs/api/crm/extensions/set-up-third-party-calling-in-help-desk).
 *
 * - The app stores its webhook: GET / POST / PATCH / DELETE
 *   /crm/v3/extensions/calling/{appId}/settings/channel-connection
 *   `{url, isReady}` → `{url, isReady, createdAt, updatedAt}` (developer API key).
 * - When the CRM needs the numbers, it POSTs `{appId, portalId, userId}` to
 *   that URL, signed with the app's client secret (v3 signature headers), and
 *   the app answers with the list of numbers, each `{e164PhoneNumber,
 *   extension?, friendlyName?}`. A number with an extension cannot be
 *   connected, and a friendly name is at most 24 characters, as the guide says.
 *   The guide shows the list without its wrapper, so both a bare JSON array
 *   and `{"phoneNumbers": [...]}` are read.
 *
 * The emulator's own endpoint does that request on demand, so the harness's
 * Developer settings can show the connection's state (no real API has it):
 * POST /_ringside/v1/calling/channel-connection/check → 200
 * `{status: NOT_CONFIGURED | NOT_READY | CONNECTED | FAILED, url?, checkedAt, numbers?, reason?}`.
 */
import { z } from 'zod'
import { ACCOUNT } from '../http/auth.ts'
import type { Database } from '../data/db.ts'
import type { Table } from '../data/table.ts'
import { json } from '../http/http.ts'
import type { Route, ServiceDeps } from '../http/route.ts'
import { appSettingsRoutes } from './app-settings.ts'
import { vendorUrlField } from '../http/url-field.ts'
import { OutboundError } from '../outbound/read.ts'
import { OUTBOUND_LIMITS, signedHeaders, vendorJson } from './outbound.ts'

const vendorUrl = vendorUrlField()
const settingsSchema = z.object({ url: vendorUrl, isReady: z.boolean(), createdAt: z.string(), updatedAt: z.string() })
type ChannelConnectionSettings = z.infer<typeof settingsSchema>

const postSchema = z.object({ url: vendorUrl, isReady: z.boolean() }).strict()
const patchSchema = postSchema.partial()

export function channelConnectionTable(db: Database): Table<ChannelConnectionSettings> {
  return db.table('calling_channel_connection', settingsSchema)
}

/** The longest friendly name the CRM takes. */
export const FRIENDLY_NAME_LIMIT = 24
/** Numbers read from one answer (an emulator budget). */
export const MAX_CHANNEL_NUMBERS = 500

const vendorNumber = z.object({ e164PhoneNumber: z.string(), extension: z.string().optional(), friendlyName: z.string().optional() })
const vendorAnswer = z.union([z.array(z.unknown()), z.object({ phoneNumbers: z.array(z.unknown()) }).transform((o) => o.phoneNumbers)])

export interface ChannelNumber {
  e164PhoneNumber: string
  extension?: string
  friendlyName?: string
  /** Whether a user could connect it; if not, why. */
  connectable: boolean
  problem?: string
}

/** The vendor's numbers, each with whether it can be connected. */
function readNumbers(answer: unknown): ChannelNumber[] {
  const parsed = vendorAnswer.safeParse(answer)
  if (!parsed.success) throw new OutboundError('The channel-connection webhook did not answer a list of numbers (a JSON array, or {"phoneNumbers": [...]}).')
  if (parsed.data.length > MAX_CHANNEL_NUMBERS) throw new OutboundError(`The channel-connection webhook answered ${parsed.data.length} numbers; the emulator reads at most ${MAX_CHANNEL_NUMBERS}.`)
  return parsed.data.map((item, i) => {
    const number = vendorNumber.safeParse(item)
    if (!number.success) return { e164PhoneNumber: '', connectable: false, problem: `Item ${i} is not {e164PhoneNumber, extension?, friendlyName?}.` }
    const { e164PhoneNumber, extension, friendlyName } = number.data
    const problem = !/^\+[1-9]\d{1,14}$/.test(e164PhoneNumber)
      ? `${e164PhoneNumber} is not an E.164 number.`
      : extension
        ? 'Numbers with an extension cannot be connected to the help desk.'
        : friendlyName !== undefined && friendlyName.length > FRIENDLY_NAME_LIMIT
          ? `The friendly name is longer than ${FRIENDLY_NAME_LIMIT} characters.`
          : undefined
    return { e164PhoneNumber, ...(extension !== undefined && { extension }), ...(friendlyName !== undefined && { friendlyName }), connectable: !problem, ...(problem && { problem }) }
  })
}

/** The path of the emulator's check. */
export const CHANNEL_CONNECTION_CHECK_PATH = '/_ringside/v1/calling/channel-connection/check'

export function channelConnectionRoutes(deps: ServiceDeps): Route[] {
  const table = channelConnectionTable(deps.db)
  return [
    ...appSettingsRoutes({
      path: '/crm/v3/extensions/calling/:appId/settings/channel-connection',
      what: 'Channel connection settings',
      table,
      postSchema,
      patchSchema,
      toResponse: (row: ChannelConnectionSettings) => row,
      deletable: true,
    }),
    {
      method: 'POST',
      path: CHANNEL_CONNECTION_CHECK_PATH,
      auth: { kind: 'none' },
      // Waits on the vendor's server: outside the request's transaction.
      outsideTransaction: true,
      async handler(ctx) {
        const settings = await ctx.db.transaction(() => table.get(String(ACCOUNT.appId)))
        const checkedAt = new Date(ctx.now).toISOString()
        if (!settings) return json({ status: 'NOT_CONFIGURED', checkedAt })
        if (!settings.isReady) return json({ status: 'NOT_READY', url: settings.url, checkedAt })
        const body = JSON.stringify({ appId: ACCOUNT.appId, portalId: ACCOUNT.hubId, userId: ACCOUNT.userId })
        try {
          // Signed for the URL exactly as it is requested (normalized as fetch sends it).
          const uri = new URL(settings.url).href
          const headers = await signedHeaders(ACCOUNT.clientSecret, 'POST', uri, body, deps.now())
          const request = new Request(uri, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', ...headers }, body })
          const read = await deps.outbound.run((reads) => reads.all(request, { maxBytes: OUTBOUND_LIMITS.maxJsonBytes, trust: 'vendor' }))
          const answer = vendorJson(read, `The channel-connection webhook (POST ${settings.url})`)
          return json({ status: 'CONNECTED', url: settings.url, checkedAt, numbers: readNumbers(answer) })
        } catch (error) {
          if (!(error instanceof OutboundError)) throw error
          return json({ status: 'FAILED', url: settings.url, checkedAt, reason: error.message })
        }
      },
    },
  ]
}
