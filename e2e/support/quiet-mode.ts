import { queryParam } from './page-utils.ts'

/**
 * `?quiet=1` (benchmark only): console.debug becomes a no-op on this page.
 * Under Playwright every console call is reported over the DevTools protocol
 * and costs ~0.1 ms, far more than in a browser without DevTools open; the
 * benchmark uses this to show what the SDKs cost without that tax.
 * Call it before the SDK is constructed.
 */
export function applyQuietMode(): void {
  if (queryParam('quiet') === '1') console.debug = () => {}
}
