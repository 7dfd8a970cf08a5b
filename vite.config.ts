import { build, defineConfig, type Plugin } from 'vite'
import react from '@vitejs/plugin-react'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { PRODUCT_PAGES } from './emulator/node/pages/page-policy.ts'
import { staticHeaders } from './tools/build/static-headers.ts'
import { DEFAULT_PORTS } from './shared/ports.mjs'

const root = import.meta.dirname

/**
 * The product pages of the main build (emulator/node/pages/page-policy.ts lists them):
 * the harness and the OAuth consent page. The reference widget is built apart
 * by vite.widget.config.ts (see there why). The e2e fixture pages are test
 * pages, built apart by vite.test-pages.config.ts into dist-test/.
 */
function pages(): Record<string, string> {
  const input: Record<string, string> = {}
  for (const page of PRODUCT_PAGES) if (page.build === 'main') input[page.name] = resolve(root, page.file)
  return input
}

/**
 * After the main build, build the reference widget with its own config
 * (vite.widget.config.ts), so one `vite build` still produces every page.
 */
function widgetBuild(): Plugin {
  return {
    name: 'ringside:widget-build',
    apply: 'build',
    async closeBundle() {
      await build({ configFile: resolve(root, 'vite.widget.config.ts'), logLevel: 'warn' })
    },
  }
}

/**
 * Dev server: a page directory asked for without its trailing slash
 * (`/oauth/authorize?client_id=…`, the consent URL the real CRM uses) is
 * redirected to it, query kept, so the page's relative module URLs resolve.
 */
function pageDirectories(): Plugin {
  return {
    name: 'ringside:page-directories',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const [path = '', query] = (req.url ?? '').split('?', 2)
        if (path.length > 1 && !path.endsWith('/') && !path.includes('.') && existsSync(resolve(root, `.${path}/index.html`))) {
          res.statusCode = 302
          res.setHeader('location', `${path}/${query === undefined ? '' : `?${query}`}`)
          res.end()
          return
        }
        next()
      })
    },
  }
}

/**
 * Multi-page build. One server serves every page, with its policy
 * (emulator/node/pages/documents.ts); the harness loads the widget from a second port so
 * the two always talk across origins, as in a real CRM.
 */
export default defineConfig({
  appType: 'mpa',
  plugins: [react(), pageDirectories(), widgetBuild(), staticHeaders(resolve(root, 'dist'))],
  // The browser-only CRM runs in a module SharedWorker (emulator/browser/crm-worker.ts).
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    sourcemap: true,
    rolldownOptions: { input: pages() },
  },
  server: { host: '127.0.0.1', port: DEFAULT_PORTS.start, strictPort: true },
  preview: { host: '127.0.0.1', port: DEFAULT_PORTS.preview, strictPort: true },
})
