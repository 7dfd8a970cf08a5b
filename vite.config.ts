import { build, defineConfig, type Plugin } from 'vite'
import react from '@vitejs/plugin-react'
import { existsSync, readdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { harnessCsp } from './vite-plugins/csp.ts'

const root = import.meta.dirname

/**
 * Every HTML page of the main build: the harness (index.html), the OAuth
 * consent page, and the small e2e fixture pages (a widget built on the npm
 * SDK, a plain host, a hostile frame) that the browser tests and the
 * benchmark load from other origins. The reference widget is built apart by
 * vite.widget.config.ts (see there why); the dev server serves every page.
 */
function pages(): Record<string, string> {
  const input: Record<string, string> = {}
  const add = (name: string, file: string) => {
    if (existsSync(resolve(root, file))) input[name] = resolve(root, file)
  }
  add('harness', 'index.html')
  add('oauth', 'oauth/authorize/index.html')
  const fixtures = resolve(root, 'e2e/fixtures')
  if (existsSync(fixtures)) {
    for (const dir of readdirSync(fixtures)) add(`fixture-${dir}`, `e2e/fixtures/${dir}/index.html`)
  }
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
 * Multi-page build. One server serves every page; the harness loads the
 * widget from a second port so the two always talk across origins, as in a
 * real CRM.
 */
export default defineConfig({
  appType: 'mpa',
  plugins: [react(), pageDirectories(), widgetBuild(), harnessCsp()],
  // The browser-only CRM runs in a module SharedWorker (shared/api/browser/crm-worker.ts).
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    sourcemap: true,
    rolldownOptions: { input: pages() },
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
})
