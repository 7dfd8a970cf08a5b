/**
 * The face of the emulated CRM's core: everything its adapters (emulator/node/,
 * emulator/browser/), the npm package and the tools may use of it. What is not
 * exported here is the core's own business; ESLint refuses an import past this
 * file from outside emulator/core/ (eslint.config.js, "the core's one face").
 *
 * The service itself is `createCrmService` (`handle(request) → response`); the
 * rest is what an adapter needs to carry the service somewhere: the shape of
 * the database and its snapshot (to persist it), the change stream (to feed
 * other pages), the import reader (to stream a file in), the outbound reads
 * (to hand the service a transport), the paths and error bodies of the API
 * (to route and refuse like it).
 */

// The service.
export { createCrmService, type CrmService, type CrmServiceOptions } from './service.ts'
export type { SeedOptions } from './data/seed.ts'

// The database: its rows, commits and snapshot format, and how it persists.
export { Database } from './data/db.ts'
export type { Commit, CommitRow, CommitSink } from './data/commits.ts'
export { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, SnapshotError, type RowsNow, type Snapshot, type TableColumns } from './data/snapshot-format.ts'
export { attachPersistence, type RowStore, type StoredData, type StoredRow, type StoreWrite } from './data/persistence.ts'
export {
  CHECKSUM_WIDTH,
  checksumText,
  lineFormat,
  linesOf,
  pairsOf,
  portableLines,
  SNAPSHOT_LAYOUT,
  type Damage,
  type Line,
  type LineSnapshot,
} from './data/line-format.ts'
export { declaredTooLarge, FILE_IMPORT_LIMITS, IMPORT_LIMITS, readImport } from './data/import-stream.ts'

// The change stream other pages follow.
export {
  changeFrame,
  parseChange,
  parsePosition,
  parseReady,
  READY_EVENT,
  readyFrame,
  type ChangeMessage,
  type ChangePosition,
  type ReadyEvent,
} from './data/change-stream.ts'

// The API's paths, credentials, versions and error bodies.
export { API_PATH_PREFIXES, CHANGE_CLIENT_HEADER, isApiPath, SERVER_PAGE_TIMING, SERVER_PATHS } from '../../shared/crm/api-paths.ts'
export { ACCOUNT, ALL_SCOPES } from './http/auth.ts'
export { ApiError, Category, notFound, validationError, type ErrorBody } from './http/errors.ts'
export { json, MAX_BODY_BYTES } from './http/http.ts'
export { DATE_VERSIONS, PATH_MAPPINGS } from './http/versions.ts'
export type { RateLimitSettings } from './http/rate-limits.ts'

// Outbound reads: the one module through which the CRM reaches a vendor's servers.
export { Outbound, OutboundError, type OutboundFetch, type OutboundRules } from './outbound/read.ts'
