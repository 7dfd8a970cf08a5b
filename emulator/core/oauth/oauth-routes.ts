/**
 * OAuth routes, as the real API serves them
 * (https://developers.hubspot.com/docs/api/oauth/tokens): the token endpoint
 * and token metadata, plus the emulator's consent and installation routes.
 * The rules are in `store.ts`; a handler here only reads the request and
 * writes the response.
 *
 * Flow: the consent page (/oauth/authorize, a page of this repo) reads
 * `GET /_ringside/v1/oauth/authorize` to show the request, then posts the
 * user's decision to `POST /_ringside/v1/oauth/authorize`, which records the
 * installation and returns where to send the browser: `redirect_uri?code=…&state=…`
 * (or `?error=access_denied&state=…`). The app exchanges the code at
 * `POST /oauth/v1/token` (form-urlencoded only). The redirect_uri must be one
 * of the app's registered redirect URLs (see redirect-urls.ts), which
 * `GET|POST|DELETE /_ringside/v1/oauth/redirect-urls` list, add and remove.
 *
 * The v1 token endpoint takes its fields in the form body or as query
 * parameters (older client code sends `?grant_type=…&client_id=…`); a field
 * in both places takes the body's value.
 *
 * The date-versioned OAuth API (`/oauth/2026-03/token`, `…/token/introspect`,
 * `…/token/revoke`, also published as `/oauth/v3/…`; the routes are
 * registered at v3 and versions.ts maps the date versions to them) answers
 * the token request exactly as v1 does, but takes every field from the form
 * body only, never from the query, so no secret ends up in a URL
 * (https://developers.hubspot.com/docs/api-reference/legacy/authentication/oauth-tokens/v1/migration-guide).
 * Introspect replaces v1's `GET /oauth/v1/access-tokens/{token}` and
 * `…/refresh-tokens/{token}`, revoke replaces `DELETE /oauth/v1/refresh-tokens/{token}`.
 */
import { validationError } from '../http/errors.ts'
import { json, noContent } from '../http/http.ts'
import type { Route, RouteContext, ServiceDeps } from '../http/route.ts'
import { REDIRECT_URLS_PATH } from '../../../shared/crm/redirect-urls.ts'
import { OAuthErrorCode, oauthError } from './oauth-app.ts'
import type { Fields, TokenForm } from './oauth-requests.ts'
import { OAuthStore } from './oauth-store.ts'

/** Fields of a token request (RFC 6749 §4.1.3, §6, §2.3.1; RFC 7636). */
const TOKEN_FIELDS = ['grant_type', 'client_id', 'client_secret', 'code', 'code_verifier', 'redirect_uri', 'refresh_token', 'scope'] as const

/** On the v1 token-metadata answers: a deprecation notice that links the OAuth tokens docs. */
const DEPRECATION_HEADERS = {
  deprecation: 'true',
  link: '<https://developers.hubspot.com/docs/api/oauth/tokens>; rel="deprecation"; type="text/html"',
  warning: '299 - "Deprecated API"',
}

const none = { kind: 'none' } as const

/** Token answers are never cached (RFC 6749 §5.1). */
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' }

/**
 * The fields of a date-versioned OAuth request: the form body only. Fields
 * sent only as query parameters are named in the error, since v1 took them.
 */
function bodyFields(ctx: RouteContext): TokenForm {
  const form: TokenForm = Object.create(null)
  if (ctx.body.kind === 'form') Object.assign(form, ctx.body.value)
  const inQuery = [...new Set(ctx.query.keys())].filter((name) => (TOKEN_FIELDS as readonly string[]).includes(name) || name === 'token')
  if (Object.keys(form).length === 0 && inQuery.length > 0) {
    const message = `This endpoint takes its fields in an application/x-www-form-urlencoded body only, not as query parameters (got ${inQuery.join(', ')} in the query).`
    throw validationError(message, { extra: { error: 'invalid_request', error_description: message } })
  }
  return form
}

export function oauthRoutes(deps: ServiceDeps): Route[] {
  const store = new OAuthStore(deps.db)
  /**
   * The token request in a transaction of its own (the route runs outside the
   * request's): a reused code's revocation is committed, then refused.
   */
  async function tokenAnswer(ctx: RouteContext, form: TokenForm): Promise<Response> {
    const outcome = await ctx.db.transaction(() => store.token(form, ctx.request.headers.get('authorization'), ctx.now), { client: ctx.client })
    if ('refused' in outcome) throw outcome.refused
    return json(outcome.grant, 200, NO_STORE)
  }

  return [
    {
      method: 'GET',
      path: '/_ringside/v1/oauth/authorize',
      auth: none,
      handler(ctx) {
        return json(store.consent(Object.fromEntries(ctx.query), ctx.url.origin))
      },
    },
    {
      method: 'POST',
      path: '/_ringside/v1/oauth/authorize',
      auth: none,
      handler(ctx) {
        const body = ctx.jsonBody()
        if (typeof body !== 'object' || body === null || Array.isArray(body)) throw validationError('The body must be a JSON object.')
        return json(store.decide(body as Fields, ctx.url.origin, ctx.now))
      },
    },
    {
      method: 'GET',
      path: REDIRECT_URLS_PATH,
      auth: none,
      handler(ctx) {
        return json(store.redirectUrls(ctx.url.origin))
      },
    },
    {
      // Body {"url": "…"}; 200 with the list (an already registered URL changes nothing).
      method: 'POST',
      path: REDIRECT_URLS_PATH,
      auth: none,
      handler(ctx) {
        const body = ctx.jsonBody()
        if (typeof body !== 'object' || body === null || Array.isArray(body)) throw validationError('The body must be a JSON object: {"url": "…"}.')
        store.addRedirectUrl((body as Record<string, unknown>).url, ctx.now)
        return json(store.redirectUrls(ctx.url.origin))
      },
    },
    {
      // ?url=… names the URL to remove; 204, or 404 if it is not registered.
      method: 'DELETE',
      path: REDIRECT_URLS_PATH,
      auth: none,
      handler(ctx) {
        const url = ctx.query.get('url')
        if (!url) throw validationError('The query parameter url is required: the redirect URL to remove.')
        store.removeRedirectUrl(url, ctx.now)
        return noContent()
      },
    },
    {
      method: 'POST',
      path: '/oauth/v1/token',
      auth: none,
      accepts: ['form'],
      outsideTransaction: true,
      async handler(ctx) {
        // Fields may come as query parameters too; the body's value wins.
        const form: TokenForm = Object.create(null)
        for (const name of TOKEN_FIELDS) {
          const value = ctx.query.get(name)
          if (value !== null) form[name] = value
        }
        if (ctx.body.kind === 'form') Object.assign(form, ctx.body.value)
        if (ctx.body.kind !== 'form' && form.grant_type === undefined) {
          throw oauthError(
            OAuthErrorCode.BAD_GRANT_TYPE,
            'invalid_request',
            'Send the token request as an application/x-www-form-urlencoded body (or its fields as query parameters).',
          )
        }
        return tokenAnswer(ctx, form)
      },
    },
    {
      method: 'POST',
      path: '/oauth/v3/token',
      auth: none,
      accepts: ['form'],
      outsideTransaction: true,
      async handler(ctx) {
        return tokenAnswer(ctx, bodyFields(ctx))
      },
    },
    {
      method: 'POST',
      path: '/oauth/v3/token/introspect',
      auth: none,
      accepts: ['form'],
      handler(ctx) {
        return json(store.introspect(bodyFields(ctx), ctx.request.headers.get('authorization'), ctx.now), 200, NO_STORE)
      },
    },
    {
      // RFC 7009 §2.2: 200, with nothing to read in the body.
      method: 'POST',
      path: '/oauth/v3/token/revoke',
      auth: none,
      accepts: ['form'],
      handler(ctx) {
        store.revoke(bodyFields(ctx), ctx.request.headers.get('authorization'), ctx.now)
        return new Response(null, { status: 200, headers: NO_STORE })
      },
    },
    {
      method: 'GET',
      path: '/oauth/v1/refresh-tokens/:token',
      auth: none,
      handler(ctx) {
        return json(store.refreshTokenInfo(ctx.params.token as string), 200, DEPRECATION_HEADERS)
      },
    },
    {
      method: 'DELETE',
      path: '/oauth/v1/refresh-tokens/:token',
      auth: none,
      handler(ctx) {
        store.revokeRefreshToken(ctx.params.token as string, ctx.now)
        return noContent(DEPRECATION_HEADERS)
      },
    },
    {
      method: 'GET',
      path: '/oauth/v1/access-tokens/:token',
      auth: none,
      handler(ctx) {
        return json(store.accessTokenInfo(ctx.params.token as string, ctx.now), 200, DEPRECATION_HEADERS)
      },
    },
    {
      method: 'GET',
      path: '/_ringside/v1/installations',
      auth: none,
      handler(ctx) {
        return json(store.installations(ctx.now))
      },
    },
    {
      method: 'DELETE',
      path: '/_ringside/v1/installations/:appId',
      auth: none,
      handler(ctx) {
        store.uninstall(ctx.params.appId as string, ctx.now)
        return noContent()
      },
    },
  ]
}
