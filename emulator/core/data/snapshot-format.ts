/**
 * The name and version an export of the database carries (`db.ts` writes and
 * checks them, `data-lines.ts` reads them). Kept apart from `db.ts` so that a
 * page that only reads a data file, the harness's Database import, does not
 * load the database and its table schemas.
 */
export const SNAPSHOT_FORMAT = 'ringside-crm-db'
export const SNAPSHOT_VERSION = 1
