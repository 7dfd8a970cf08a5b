/**
 * The static build's headers file, `dist/_headers`: each product page's
 * policy (emulator/node/pages/page-policy.ts) in the format Netlify and Cloudflare Pages
 * read (https://docs.netlify.com/routing/headers/#syntax-for-the-headers-file,
 * https://developers.cloudflare.com/pages/configuration/headers/), and that
 * tools/test/serve-dist.mjs (`npm run preview`, the browser-only e2e origins)
 * applies. Another static host gets the same headers from its own settings:
 * docs/pages.md.
 *
 * Framing: a page that Ringside's own origins may frame allows `'self'` and
 * the origins of $RINGSIDE_STATIC_ORIGINS at build time (space-separated;
 * default: `npm run preview`'s harness and widget origins).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Plugin } from 'vite'
import { DEFAULT_PORTS } from '../../shared/ports.mjs'
import { inlineScriptHashes, PRODUCT_PAGES, pageHeaders } from '../../emulator/node/pages/page-policy.ts'

/** `npm run preview`'s origins: the harness and widget ports of DEFAULT_PORTS.preview (tools/start.mjs), by address and by name. */
export const PREVIEW_ORIGINS: readonly string[] = [0, 1].flatMap((offset) => [`http://127.0.0.1:${DEFAULT_PORTS.preview + offset}`, `http://localhost:${DEFAULT_PORTS.preview + offset}`])

/** The headers file for the built pages in `distRoot`. */
export function staticHeadersFile(distRoot: string, origins: readonly string[]): string {
  const blocks = ['/*\n  X-Content-Type-Options: nosniff\n']
  for (const page of PRODUCT_PAGES) {
    const html = readFileSync(resolve(distRoot, page.file), 'utf8')
    const headers = pageHeaders(page, { frameAncestors: origins, scriptHashes: inlineScriptHashes(html) })
    const lines = Object.entries(headers).map(([name, value]) => `  ${name}: ${value}\n`).join('')
    const paths = new Set([page.path, page.path.slice(0, -1) || page.path, `/${page.file}`])
    for (const path of paths) blocks.push(`${path}\n${lines}`)
  }
  return blocks.join('\n')
}

/** Writes dist/_headers once every page is built (after the widget's own build: list this plugin after it). */
export function staticHeaders(outDir: string): Plugin {
  return {
    name: 'ringside:static-headers',
    apply: 'build',
    closeBundle: {
      order: 'post',
      handler() {
        const fromEnv = (process.env.RINGSIDE_STATIC_ORIGINS ?? '').split(/\s+/).filter(Boolean)
        const origins = fromEnv.length > 0 ? fromEnv.map((origin) => new URL(origin).origin) : PREVIEW_ORIGINS
        writeFileSync(resolve(outDir, '_headers'), staticHeadersFile(outDir, origins))
      },
    },
  }
}
