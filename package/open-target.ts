/**
 * What `ringside open [page]` opens: the harness's own paths as the harness
 * routes them. The harness is one page whose routes follow `#`
 * (`/#/contacts/1`, host-harness/lib/hash-routes.ts), so `/contacts/1` is opened as
 * `/#/contacts/1`; the paths the server itself answers stay as given: its
 * product pages (emulator/node/pages/page-policy.ts: `/`, `/widget/`, `/oauth/authorize/`),
 * the CRM API, the SDK's routes and built files (a name with a dot). Any http(s)
 * URL is opened as it is.
 */
import { isApiPath } from '../shared/crm/api-paths.ts'
import { PRODUCT_PAGES } from '../emulator/node/pages/page-policy.ts'
import { isSdkPath } from '../emulator/node/pages/sdk-cdn.ts'

/** Whether the server answers `pathname` itself (a page, the API, the SDK, a file), rather than a harness route. */
function servedPath(pathname: string): boolean {
  if (pathname === '/' || isApiPath(pathname) || isSdkPath(pathname)) return true
  if (/\.[^/]*$/.test(pathname)) return true
  return PRODUCT_PAGES.some((page) => page.path !== '/' && (pathname.startsWith(page.path) || `${pathname}/` === page.path))
}

/** The URL to open for `page` on the harness at `origin` (no trailing slash). */
export function openTarget(page: string, origin: string): string {
  if (/^https?:\/\//i.test(page)) return page
  if (page.startsWith('#')) return `${origin}/${page}`
  const path = page.startsWith('/') ? page : `/${page}`
  if (path.startsWith('/#')) return `${origin}${path}`
  const url = new URL(path, origin)
  return servedPath(url.pathname) ? url.href : `${origin}/#${path}`
}
