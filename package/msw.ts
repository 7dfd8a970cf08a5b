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
import { API_PATH_PREFIXES } from '../shared/api/api-paths.ts'
import { createCrmService, type CrmService, type CrmServiceOptions } from '../shared/api/service.ts'

export interface CrmHandlersOptions extends CrmServiceOptions {
  /** Answer with this service instead of a new one (e.g. to read its database in assertions). */
  service?: CrmService
}

/** One MSW handler per API path prefix (OAuth, CRM objects, associations, timeline, /_ringside/). */
export function crmHandlers(options: CrmHandlersOptions = {}): HttpHandler[] {
  const service = options.service ?? createCrmService(options)
  return API_PATH_PREFIXES.map((prefix) => http.all(`*${prefix}*`, ({ request }) => service.handle(request)))
}
