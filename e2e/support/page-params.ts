/**
 * The URL parameters each product page reads (emulator/node/pages/page-policy.ts lists the
 * pages), for the page scanner (e2e/page-scanner.spec.ts). Kept complete two
 * ways: emulator/node/test/page-params.test.ts greps the pages' sources for every literal name
 * they read, and the scanner records every name a page asks URLSearchParams
 * for while it runs; either one finding a name missing here fails.
 */
import { AUTHORIZE_PARAMS } from '../../oauth/authorize/consent.ts'
import { OAUTH_CALLBACK_MARKER } from '../../shared/crm/redirect-urls.ts'

export interface PageParams {
  /** Query parameters of the page's own URL. */
  readonly query: readonly string[]
  /** Hash routes (`#/…`) that read a query of their own, and its parameters. */
  readonly hashRoutes: readonly { readonly route: string; readonly params: readonly string[] }[]
}

/** The OAuth callback's answer (the consent page's redirect): the harness reads it on `/?oauth_callback=1` and on its route. */
const CALLBACK_ANSWER = ['code', 'state', 'error', 'error_description'] as const

export const PAGE_PARAMS: Readonly<Record<'harness' | 'oauth' | 'widget', PageParams>> = {
  harness: {
    query: ['widget', 'placement', 'navigation', 'syncFast', 'syncTimeoutMs', OAUTH_CALLBACK_MARKER, ...CALLBACK_ANSWER],
    hashRoutes: [{ route: '/developer/oauth-callback', params: CALLBACK_ANSWER }],
  },
  oauth: { query: AUTHORIZE_PARAMS, hashRoutes: [] },
  widget: {
    query: ['outcome', 'answerAfterMs', 'ringAfterMs', 'noAnswerAfterMs', 'incomingAfterMs', 'incomingGiveUpAfterMs', 'remoteHangUpAfterMs', 'autoLogin', 'available', 'debug', 'fromNumber', 'incoming', 'confirmDial'],
    hashRoutes: [],
  },
}

/** Hash routes of the harness the scanner opens (each view that reads the location), besides those above. */
export const HARNESS_ROUTES = ['/contacts', '/contacts/1', '/tasks', '/calling-integration-popup-ui/123456', '/calling-window', '/developer', '/developer/calling'] as const

/** Names the pages read from URLs that are not their own (API requests the harness sends): not page parameters. */
export const NOT_PAGE_PARAMS: ReadonlySet<string> = new Set(['content-type', 'hapikey'])
