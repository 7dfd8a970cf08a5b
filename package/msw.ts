/**
 * `ringside/msw`: request handlers for Mock Service Worker, for a project
 * that already runs MSW in its frontend (`setupWorker`) or its Node tests
 * (`setupServer`). Every CRM API request, on any origin, is answered by one
 * emulated CRM (a `createCrmService()`):
 *
 *   import { setupServer } from 'msw/node'
 *   import { crmHandlers } from 'ringside/msw'
 *   const server = setupServer(...crmHandlers())
 */
import { http, type HttpHandler } from 'msw'
import { isApiPath } from '../emulator/core/http/api-paths.ts'
import { createCrmService, type CrmService, type CrmServiceOptions } from '../emulator/core/service.ts'
import { PATH_MAPPINGS } from '../emulator/core/http/versions.ts'

export interface CrmHandlersOptions extends CrmServiceOptions {
  /** Answer with this service instead of a new one (e.g. to read its database in assertions). */
  service?: CrmService
}

/**
 * One MSW handler for the API names the service has routes under (`/crm/`,
 * `/oauth/`, `/integrators/`, `/_ringside/`, …, in every path form the
 * service takes). On any origin only those are answered, so the app's own
 * routes under the API's other product names (`/settings/`, `/files/`) still
 * reach the app; under them, a path no route serves gets the API's 404.
 */
export function crmHandlers(options: CrmHandlersOptions = {}): HttpHandler[] {
  const service = options.service ?? createCrmService(options)
  const served = new Set([...service.routes.map((r) => r.path), ...PATH_MAPPINGS.map((m) => m.from)].map((path) => `/${path.split('/')[1]}/`))
  return [
    http.all('*', ({ request }) => {
      const path = new URL(request.url).pathname
      return isApiPath(path) && served.has(`/${path.split('/')[1]}/`) ? service.handle(request) : undefined
    }),
  ]
}
