/**
 * Where the calling widget's settings come from, as a pure function.
 *
 * Three layers, lowest first:
 * 1. the calling settings of app 1001, read from the API
 *    (GET /crm/v3/extensions/calling/1001/settings, developer key);
 * 2. the browser's testing override, localStorage key
 *    `LocalSettings:Calling:CallingExtensions`, which the real CRM honours for
 *    testing a widget before it is registered: a JSON object with
 *    any of `isReady`, `name`, `url`;
 * 3. `?widget=<url>` in the harness page's query (before the hash), for this
 *    page load only. Any web site can send the browser to such an address, so
 *    a URL that is not on this machine waits until the person at the harness
 *    confirms it ({@link queryWidgetNeedsConsent}).
 *
 * Every URL must be http(s). An invalid layer (or field) is reported as an
 * error and ignored; the layers below it still apply.
 */
import { isRecord } from '../../../shared/crm/guards.ts'
import { safeUrl } from '../../../shared/url/safe-url.ts'
import { isOnThisMachine } from '../../../shared/url/this-machine.ts'

export const OVERRIDE_STORAGE_KEY = 'LocalSettings:Calling:CallingExtensions'

/** The fields of the settings response the harness uses. */
export interface ApiCallingSettings {
  name: string
  url: string
  width: number
  height: number
  isReady: boolean
  supportsInboundCalling: boolean
  usesCallingWindow: boolean
  usesRemote: boolean
}

/** What localStorage may override. */
export interface CallingOverride {
  isReady?: boolean
  name?: string
  url?: string
}

export type SettingSource = 'api' | 'override' | 'query' | 'default'

/** The settings the harness runs with, and where each overridable field came from. */
export interface EffectiveSettings extends ApiCallingSettings {
  sources: { url: SettingSource; name: SettingSource; isReady: SettingSource }
  /** The registered app's widget URL (calling settings), when there is one: an override may name the same widget. */
  registeredUrl?: string
}

export const DEFAULT_SIZE = { width: 400, height: 600 } as const

/** Widget sizes the harness accepts (settings and RESIZE_WIDGET are clamped to these). */
export const SIZE_BOUNDS = { minWidth: 200, maxWidth: 800, minHeight: 200, maxHeight: 900 } as const

/** Clamps a requested size to {@link SIZE_BOUNDS}; non-finite values fall back to the default. */
export function clampSize(width: unknown, height: unknown): { width: number; height: number } {
  const pick = (value: unknown, fallback: number, min: number, max: number) => {
    const n = typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : fallback
    return Math.min(max, Math.max(min, n))
  }
  return {
    width: pick(width, DEFAULT_SIZE.width, SIZE_BOUNDS.minWidth, SIZE_BOUNDS.maxWidth),
    height: pick(height, DEFAULT_SIZE.height, SIZE_BOUNDS.minHeight, SIZE_BOUNDS.maxHeight),
  }
}

/**
 * The URL, normalised, if shared/url/safe-url.ts accepts it as an absolute http(s) URL; otherwise null.
 * Whitespace at the ends is dropped first: a URL pasted into a settings field often carries it.
 */
export function httpUrl(value: unknown): string | null {
  return safeUrl(typeof value === 'string' ? value.trim() : value) ?? null
}


/**
 * Reads the API's settings body; unknown or ill-typed fields get safe defaults,
 * but a missing/invalid URL makes the API layer unusable.
 */
export function parseApiSettings(body: unknown): { settings: ApiCallingSettings | null; errors: string[] } {
  if (!isRecord(body)) return { settings: null, errors: ['The calling settings response is not a JSON object.'] }
  const errors: string[] = []
  const url = httpUrl(body.url)
  if (url === null) errors.push(`The registered widget URL ${JSON.stringify(body.url)} is not an http(s) URL; it is ignored.`)
  const size = clampSize(body.width, body.height)
  const bool = (v: unknown, fallback: boolean) => (typeof v === 'boolean' ? v : fallback)
  const settings: ApiCallingSettings = {
    name: typeof body.name === 'string' && body.name.trim() !== '' ? body.name : 'Calling app',
    url: url ?? '',
    width: size.width,
    height: size.height,
    isReady: bool(body.isReady, true),
    supportsInboundCalling: bool(body.supportsInboundCalling, false),
    usesCallingWindow: bool(body.usesCallingWindow, false),
    usesRemote: bool(body.usesRemote, false),
  }
  return { settings, errors }
}

/**
 * Parses the localStorage override. Invalid JSON voids it entirely; an
 * invalid field is dropped with an error and the valid fields still apply.
 */
export function parseOverride(raw: string | null): { override: CallingOverride; errors: string[] } {
  if (raw === null || raw.trim() === '') return { override: {}, errors: [] }
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    return { override: {}, errors: [`${OVERRIDE_STORAGE_KEY} is not valid JSON; it is ignored.`] }
  }
  if (!isRecord(parsed)) return { override: {}, errors: [`${OVERRIDE_STORAGE_KEY} must hold a JSON object; it is ignored.`] }
  const override: CallingOverride = {}
  const errors: string[] = []
  if ('url' in parsed) {
    const url = httpUrl(parsed.url)
    if (url === null) errors.push(`Override url ${JSON.stringify(parsed.url)} is not an http(s) URL; it is ignored.`)
    else override.url = url
  }
  if ('name' in parsed) {
    if (typeof parsed.name === 'string' && parsed.name.trim() !== '') override.name = parsed.name
    else errors.push('Override name must be a non-empty string; it is ignored.')
  }
  if ('isReady' in parsed) {
    if (typeof parsed.isReady === 'boolean') override.isReady = parsed.isReady
    else errors.push('Override isReady must be true or false; it is ignored.')
  }
  return { override, errors }
}

/** Reads `?widget=` from a page query string (`location.search`). */
export function parseQueryWidget(search: string): { url: string | null; errors: string[] } {
  const raw = new URLSearchParams(search).get('widget')
  if (raw === null) return { url: null, errors: [] }
  const url = httpUrl(raw)
  if (url === null) return { url: null, errors: [`?widget=${raw} is not an http(s) URL; it is ignored.`] }
  return { url, errors: [] }
}

/**
 * Whether a `?widget=` URL waits for the person at the harness to confirm it.
 * Any page on the web can open the harness with `?widget=`; the widget it
 * names would then drive the CRM (log calls, read the record shown). Loaded
 * at once only when its host is this machine, judged on the parsed host
 * (loopback IP, or localhost / *.localhost): a page there is a program the
 * developer already runs. The localStorage override and the Setup field are
 * written only by Ringside's own page, so they need no confirmation.
 */
export function queryWidgetNeedsConsent(url: string): boolean {
  return !isOnThisMachine(url)
}

export interface ResolveInput {
  /** Parsed API settings, or null when they could not be read. */
  api: ApiCallingSettings | null
  override: CallingOverride
  queryUrl: string | null
  /** Used for the URL when no layer provides one (our reference widget). */
  defaultUrl?: string | null
}

/** Applies the layers: query URL > localStorage override > API > default URL. */
export function resolveSettings(input: ResolveInput): EffectiveSettings | null {
  const base: ApiCallingSettings = input.api ?? {
    name: 'Calling app',
    url: '',
    ...DEFAULT_SIZE,
    isReady: true,
    supportsInboundCalling: false,
    usesCallingWindow: false,
    usesRemote: false,
  }
  const apiSource: SettingSource = input.api ? 'api' : 'default'
  let url: string | null = null
  let urlSource: SettingSource = 'default'
  if (input.queryUrl) {
    url = input.queryUrl
    urlSource = 'query'
  } else if (input.override.url) {
    url = input.override.url
    urlSource = 'override'
  } else if (input.api && input.api.url) {
    url = input.api.url
    urlSource = 'api'
  } else if (input.defaultUrl) {
    url = httpUrl(input.defaultUrl)
  }
  if (!url) return null
  const registered = input.api?.url ? httpUrl(input.api.url) : null
  return {
    ...base,
    ...(registered ? { registeredUrl: registered } : {}),
    url,
    name: input.override.name ?? base.name,
    isReady: input.override.isReady ?? base.isReady,
    sources: {
      url: urlSource,
      name: input.override.name !== undefined ? 'override' : apiSource,
      isReady: input.override.isReady !== undefined ? 'override' : apiSource,
    },
  }
}

/**
 * The reference widget's default address: the harness's host name with the
 * port + 1, path `/widget/`.
 */
export { defaultWidgetUrl } from '../../../shared/crm/reference-widget.ts'

/** The override after setting (or clearing, with null) its URL; other fields are kept. */
export function overrideWithUrl(raw: string | null, url: string | null): { value: string | null; error?: string } {
  const { override } = parseOverride(raw)
  if (url === null) {
    delete override.url
  } else {
    const checked = httpUrl(url)
    if (checked === null) return { value: raw, error: `${JSON.stringify(url)} is not an http(s) URL.` }
    override.url = checked
  }
  return { value: Object.keys(override).length === 0 ? null : JSON.stringify(override) }
}
