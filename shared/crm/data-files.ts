/**
 * Ringside's data files as the import endpoint (POST /_ringside/v1/import)
 * takes them: an export is JSON, a data folder's snapshot.ndjson is lines of
 * JSON. The emulator checks a body's type against this list; the harness's
 * Database panel and `ringside import` send a file with the type it names.
 */

/**
 * The content types an import body may carry. None is a CORS "simple" type,
 * so a page on another site cannot send an import without a preflight.
 */
export const IMPORT_CONTENT_TYPES = ['application/json', 'application/x-ndjson', 'application/octet-stream'] as const

/** The content type to send a file as: NDJSON for a data folder's snapshot.ndjson, JSON for an export. */
export const importContentType = (fileName: string): (typeof IMPORT_CONTENT_TYPES)[number] => (fileName.toLowerCase().endsWith('.ndjson') ? 'application/x-ndjson' : 'application/json')
