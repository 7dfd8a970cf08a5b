/**
 * Calling extension settings, as the real API serves them (see
 * https://developers.hubspot.com/docs/guides/apps/extensions/calling-extensions/calling-sdk):
 * POST (200, not 201), GET, PATCH, DELETE (204) on
 * /crm/v3/extensions/calling/{appId}/settings, with the developer API key.
 *
 * Only the developer app of the account has settings; any other appId is
 * 404 (the routes are calling/app-settings.ts's, shared with the recording
 * and channel-connection settings). Defaults for fields a POST leaves out: isReady true
 * ("Whether the widget is ready for users (default=true)", the SDK's README
 * until the inbound-calling rewrite, HubSpot/calling-extensions-sdk PR #150);
 * width 400 and height 600, the size of the README's example payload; every
 * other flag false, since each one turns on behaviour an app must ask for
 * (custom objects, inbound calls, the remote, the calling window). The API
 * reference marks every field required and documents no default, so these
 * last ones are Ringside's reading. The harness falls back to these same
 * values when a settings body lacks a field.
 */
import { z } from 'zod'
import type { Database } from '../data/db.ts'
import type { Table } from '../data/table.ts'
import type { Route, ServiceDeps } from '../http/route.ts'
import { appSettingsRoutes } from './app-settings.ts'
import { urlField } from '../http/url-field.ts'

/** The widget's URL, framed by the CRM's pages: checked the same way in a request body and in an imported row. */
const httpUrl = z.string().max(2048).pipe(urlField())

const settingsSchema = z.object({
  name: z.string(),
  url: httpUrl,
  width: z.number().int(),
  height: z.number().int(),
  isReady: z.boolean(),
  supportsCustomObjects: z.boolean(),
  usesRemote: z.boolean(),
  usesCallingWindow: z.boolean(),
  supportsInboundCalling: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
/** SettingsResponse: every field is always present. */
export type CallingSettings = z.infer<typeof settingsSchema>

/** Largest width or height accepted, in pixels. */
export const MAX_WIDGET_SIZE = 10_000

const size = z.number().int().min(1).max(MAX_WIDGET_SIZE)

const patchSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    url: httpUrl,
    width: size,
    height: size,
    isReady: z.boolean(),
    supportsCustomObjects: z.boolean(),
    usesRemote: z.boolean(),
    usesCallingWindow: z.boolean(),
    supportsInboundCalling: z.boolean(),
  })
  .partial()
  .strict()

const postSchema = patchSchema.required({ name: true, url: true })

export type CallingSettingsInput = z.infer<typeof postSchema>

export const SETTINGS_DEFAULTS = {
  width: 400,
  height: 600,
  isReady: true,
  supportsCustomObjects: false,
  usesRemote: false,
  usesCallingWindow: false,
  supportsInboundCalling: false,
} as const

/** Settings keyed by appId. */
export function callingSettingsTable(db: Database): Table<CallingSettings> {
  return db.table('calling_settings', settingsSchema)
}

/** Register (or replace) the settings of an app; used by the seed. */
export function putCallingSettings(db: Database, appId: number, input: CallingSettingsInput, now: number): CallingSettings {
  const iso = new Date(now).toISOString()
  // Parsed so the row has the schema's key order, as a restored snapshot has.
  const settings = settingsSchema.parse({ ...SETTINGS_DEFAULTS, ...input, createdAt: iso, updatedAt: iso })
  callingSettingsTable(db).set(String(appId), settings)
  return settings
}

export function callingSettingsRoutes(deps: ServiceDeps): Route[] {
  return appSettingsRoutes({
    path: '/crm/v3/extensions/calling/:appId/settings',
    what: 'Calling settings',
    table: callingSettingsTable(deps.db),
    postSchema,
    patchSchema,
    defaults: SETTINGS_DEFAULTS,
    toResponse: (row: CallingSettings) => row,
    deletable: true,
  })
}
