/**
 * `ringside/api`: the emulated CRM in process. `createCrmService()` answers
 * fetch-standard Requests with the same routes, statuses and bodies as
 * `ringside start`; `startRingside()` starts that server from Node (a test's
 * global setup), and `ACCOUNT` holds the emulated account's credentials.
 */
export { createCrmService } from '../shared/api/service.ts'
export type { CrmService, CrmServiceOptions } from '../shared/api/service.ts'
export { ACCOUNT } from '../shared/api/auth.ts'
export { API_PATH_PREFIXES, isApiPath } from '../shared/api/api-paths.ts'
export { startRingside } from '../server/server.ts'
export { PACKAGE_VERSION } from '../server/package-info.ts'
export type { RingsideServer, RingsideServerOptions } from '../server/server.ts'
