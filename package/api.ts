/**
 * `ringside/api`: the emulated CRM in process. `createCrmService()` answers
 * fetch-standard Requests with the same routes, statuses and bodies as
 * `ringside start`; `startRingside()` starts that server from Node (a test's
 * global setup), and `ACCOUNT` holds the emulated account's credentials.
 */
export { createCrmService } from '../emulator/core/service.ts'
export type { CrmService, CrmServiceOptions } from '../emulator/core/service.ts'
export { ACCOUNT } from '../emulator/core/http/auth.ts'
export { API_PATH_PREFIXES, isApiPath } from '../emulator/core/http/api-paths.ts'
export { startRingside } from '../emulator/node/server.ts'
export { PACKAGE_VERSION } from '../emulator/node/package-info.ts'
export type { RingsideServer, RingsideServerOptions } from '../emulator/node/server.ts'
