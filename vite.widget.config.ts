import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { resolve } from 'node:path'
import { PRODUCT_PAGES } from './emulator/node/pages/page-policy.ts'

const root = import.meta.dirname
const pages = Object.fromEntries(PRODUCT_PAGES.filter((page) => page.build === 'widget').map((page) => [page.name, resolve(root, page.file)]))

/**
 * Production build of the reference widget alone, into the same dist/.
 *
 * The widget is written against React's API and its unit and component tests
 * run on React. Its production bundle swaps React for preact/compat, which
 * implements the same API in a tenth of the size: a calling widget is loaded
 * inside someone else's CRM page, and the size budget (75 KB gzip, measured
 * by `npm run bench`) cannot be met with react-dom alone weighing 67 KB.
 * Every Playwright test of the widget runs this build, so the swap is tested
 * where it ships. Built separately because an alias applies to a whole build,
 * and the harness keeps real React.
 */
export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: [
      { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
      { find: /^react-dom$/, replacement: 'preact/compat' },
      { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
      { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
      { find: /^react$/, replacement: 'preact/compat' },
    ],
  },
  build: {
    target: 'es2022',
    sourcemap: true,
    emptyOutDir: false,
    rolldownOptions: { input: pages },
  },
})
