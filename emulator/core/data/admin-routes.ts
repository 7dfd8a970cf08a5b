/**
 * Emulator-only endpoints under /_ringside/v1/ (no real API has them). The
 * harness and the tests use them, always over HTTP:
 *
 * - POST /_ringside/v1/reset   → 200; back to the fresh seeded account.
 * - GET  /_ringside/v1/export  → 200; the database snapshot (JSON).
 * - POST /_ringside/v1/import  → 200; replace the database with an export
 *   or a data folder's snapshot.ndjson, read as it streams within its own
 *   budget (import-stream.ts; not the other routes' MAX_BODY_BYTES). A
 *   corrupt or foreign snapshot is 400 VALIDATION_ERROR with the reason, one
 *   over the budget 413, and nothing changes.
 * - GET  /_ringside/v1/account → 200; the credentials of this emulator.
 *
 * No authentication: the emulator runs inside the developer's own page (MSW
 * answers only requests from that page's origin), and the harness must be
 * able to reset it without holding a token.
 */
import { ACCOUNT, ALL_SCOPES } from '../http/auth.ts'
import { portableLines } from './line-format.ts'
import type { SnapshotImporter } from './snapshot-format.ts'
import { validationError } from '../http/errors.ts'
import { json } from '../http/http.ts'
import { IMPORT_PATH, readImportRequest } from './import-stream.ts'
import { OBJECT_TYPE_NAMES } from '../objects/object-types.ts'
import type { Route, ServiceDeps } from '../http/route.ts'

export function adminRoutes(deps: ServiceDeps): Route[] {
  const none = { kind: 'none' } as const
  const counts = () => Object.fromEntries(OBJECT_TYPE_NAMES.map((t) => [t, deps.objects.count(t)]))
  return [
    {
      method: 'POST',
      path: '/_ringside/v1/reset',
      auth: none,
      handler() {
        deps.reseed()
        return json({ status: 'reset', counts: counts() })
      },
    },
    {
      method: 'GET',
      path: '/_ringside/v1/export',
      auth: none,
      handler(ctx) {
        return json(deps.db.snapshot(new Date(ctx.now)), 200, {
          'content-disposition': 'attachment; filename="ringside-crm-export.json"',
        })
      },
    },
    {
      method: 'POST',
      path: IMPORT_PATH,
      auth: none,
      // Rows are read and checked as they stream in, before the transaction: other requests go on meanwhile.
      async readBody(request) {
        const importer = deps.db.importer()
        await readImportRequest(request, importer, portableLines)
        return importer
      },
      handler(ctx) {
        if (ctx.body.kind !== 'read') throw validationError('The import body is empty.')
        ;(ctx.body.value as SnapshotImporter).load()
        // Rows that each fit their table but break the API's rules (a stage of no pipeline) are refused too;
        // throwing here undoes the restore.
        const problem = deps.objects.findIntegrityProblem()
        if (problem) throw validationError(`Corrupt export: ${problem}.`)
        return json({ status: 'imported', counts: counts() })
      },
    },
    {
      method: 'GET',
      path: '/_ringside/v1/account',
      auth: none,
      handler() {
        return json({
          hubId: ACCOUNT.hubId,
          hubDomain: ACCOUNT.hubDomain,
          userId: ACCOUNT.userId,
          userEmail: ACCOUNT.userEmail,
          appId: ACCOUNT.appId,
          clientId: ACCOUNT.clientId,
          clientSecret: ACCOUNT.clientSecret,
          developerApiKey: ACCOUNT.developerApiKey,
          privateAppToken: ACCOUNT.privateAppToken,
          integrationPrivateAppToken: ACCOUNT.integrationPrivateAppToken,
          scopes: [...ALL_SCOPES],
        })
      },
    },
  ]
}
