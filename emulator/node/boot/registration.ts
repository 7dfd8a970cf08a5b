/**
 * The registration boot step of server mode: the app's calling widget and
 * OAuth redirect URLs that --widget and --redirect-url give, registered
 * through the API like any client (saved or imported data has its own; these
 * change it), and a warning when saved data points at a widget that moved.
 */
import { ACCOUNT } from '../../core/index.ts'
import type { CrmService } from '../../core/index.ts'
import { WIDGET_NAME } from '../../../shared/crm/reference-widget.ts'
import { REDIRECT_URLS_PATH } from '../../../shared/crm/redirect-urls.ts'
import { StartupError } from '../listeners.ts'
import { movedWidgetWarning } from '../moved-widget.ts'
import type { RingsideServerOptions } from './options.ts'
import type { OpenedData } from './storage.ts'

/** Apply --widget and --redirect-url to the main CRM (`widgetUrl`: the one the seed registers); a refusal releases the lock. */
export async function registerApp(options: RingsideServerOptions, widgetUrl: string, { service, storage, loaded }: OpenedData, warnings: string[], notes: string[]): Promise<void> {
  if (!options.widgetUrl && (loaded !== null || options.importFile)) {
    const moved = await movedWidgetWarning(service, widgetUrl)
    if (moved) warnings.push(moved)
  }
  if (options.widgetUrl) {
    // Saved or imported data has its own registration; --widget changes it, through the API like any client.
    try {
      await registerWidget(service, options.widgetUrl, options.widgetName ?? WIDGET_NAME)
    } catch (error) {
      storage?.releaseLockSync()
      throw error
    }
    notes.push(`--widget: registered ${options.widgetUrl} as the calling widget of app ${ACCOUNT.appId}, named ${JSON.stringify(options.widgetName ?? WIDGET_NAME)}.`)
  }
  if (options.redirectUrls && options.redirectUrls.length > 0) {
    // Saved or imported data has its own list; --redirect-url adds to it, through the API like any client.
    try {
      for (const url of options.redirectUrls) await registerRedirectUrl(service, url)
    } catch (error) {
      storage?.releaseLockSync()
      throw error
    }
    notes.push(`--redirect-url: registered ${options.redirectUrls.join(', ')} as redirect URL${options.redirectUrls.length > 1 ? 's' : ''} of app ${ACCOUNT.appId}.`)
  }
}

/** Point the calling settings of the app at `url` (PATCH, or POST when the app has none). */
async function registerWidget(service: CrmService, url: string, name: string): Promise<void> {
  const endpoint = `http://ringside.local/crm/v3/extensions/calling/${ACCOUNT.appId}/settings?hapikey=${ACCOUNT.developerApiKey}`
  const send = (method: string, body: unknown) => service.handle(new Request(endpoint, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }))
  let response = await send('PATCH', { name, url })
  if (response.status === 404) response = await send('POST', { name, url })
  if (!response.ok) throw new StartupError(`--widget ${url}: the API refused it (${response.status}): ${await response.text()}`)
}

/** Register an OAuth redirect URL of the app (already registered: nothing changes). */
async function registerRedirectUrl(service: CrmService, url: string): Promise<void> {
  const response = await service.handle(
    new Request(`http://ringside.local${REDIRECT_URLS_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url }) }),
  )
  if (!response.ok) throw new StartupError(`--redirect-url ${url}: the API refused it (${response.status}): ${await response.text()}`)
}
