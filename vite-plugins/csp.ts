/**
 * Content-Security-Policy for the harness page, production build only.
 *
 * Vite's dev server injects inline scripts (the HMR client, React refresh
 * preamble), so the policy is added by `apply: 'build'` and only to the pages
 * listed (by default the harness, `/index.html`): the widget and the fixture
 * pages are other apps with their own needs.
 *
 * The policy fits the harness's own assets: scripts and styles from its
 * origin (React's `style` attributes need 'unsafe-inline' for styles only),
 * images from its origin or inline (the app icon is a data: URL), the API via
 * MSW on the same origin, the MSW service worker, and frames from any http(s)
 * origin (the calling widget and timelineIFrame content live elsewhere).
 */
import type { Plugin } from 'vite'

export const HARNESS_CSP_DIRECTIVES: Readonly<Record<string, string>> = {
  'default-src': "'self'",
  'script-src': "'self'",
  'style-src': "'self' 'unsafe-inline'",
  'img-src': "'self' data: blob:",
  'font-src': "'self'",
  'frame-src': 'http: https:',
  'connect-src': "'self'",
  'worker-src': "'self'",
  'object-src': "'none'",
  'base-uri': "'self'",
  'form-action': "'self'",
}

export function cspString(directives: Readonly<Record<string, string>> = HARNESS_CSP_DIRECTIVES): string {
  return Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`)
    .join('; ')
}

export interface CspPluginOptions {
  /** Public paths of the pages that get the policy (default `['/index.html']`). */
  pages?: readonly string[]
  directives?: Readonly<Record<string, string>>
}

/** Injects `<meta http-equiv="Content-Security-Policy">` as the first element of `<head>`. */
export function harnessCsp(options: CspPluginOptions = {}): Plugin {
  const pages = new Set(options.pages ?? ['/index.html'])
  const content = cspString(options.directives)
  return {
    name: 'ringside:harness-csp',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        if (!pages.has(ctx.path)) return undefined
        return [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content }, injectTo: 'head-prepend' }]
      },
    },
  }
}
