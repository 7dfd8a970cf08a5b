/**
 * A warning for saved data whose registered widget is the reference widget of
 * a server on another port: data saved by a server on another --port (or by a
 * Ringside whose default port was another, 5173) registers the reference widget
 * at that server's widget origin, where nothing answers now, and the dock would
 * show an empty frame.
 */
import { ACCOUNT } from '../core/index.ts'
import { isLoopback } from '../../shared/url/ip-address.ts'
import type { CrmService } from '../core/index.ts'

/** The sentence for a registered reference widget on another port than `widgetUrl`'s; null when it is this one, or not the reference widget. */
export async function movedWidgetWarning(service: CrmService, widgetUrl: string): Promise<string | null> {
  const response = await service.handle(new Request(`http://ringside.local/crm/v3/extensions/calling/${ACCOUNT.appId}/settings?hapikey=${ACCOUNT.developerApiKey}`))
  if (!response.ok) return null
  const { url } = (await response.json()) as { url?: unknown }
  if (typeof url !== 'string') return null
  let registered: URL
  try {
    registered = new URL(url)
  } catch {
    return null
  }
  const ours = new URL(widgetUrl)
  if (registered.pathname !== ours.pathname || !isLoopback(registered.hostname.replace(/^\[|\]$/g, '')) || registered.port === ours.port) return null
  const port = Number(registered.port) - 1
  return (
    `The data registers the reference widget at ${url}, the widget origin of a server on port ${port}; this server's is ${ours.origin}${ours.pathname}, so the dock would show nothing. ` +
    `Register this one with --widget ${ours.origin}${ours.pathname}, or start on the data's port with --port ${port}.`
  )
}
