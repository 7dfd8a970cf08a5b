import { copyFile } from 'node:fs/promises'
import { defineConfig, type Options } from 'tsup'

/**
 * The npm package's code (`npm run build`, after the Vite build of the pages):
 * - lib/: the CLI and the entry points of the exports map, ES modules for
 *   Node 22 and later (dependencies stay external; types come from tsc,
 *   tsconfig.package.json), and the two stylesheets the HTML report inlines
 *   (shared/ui/tokens.css, kit/report/report.css), read from lib/ at run time;
 * - dist/sdk/: the browser build of the calling SDK that `ringside start`
 *   serves at /sdk/<version>/: an ES module and a UMD script;
 * - dist/sdk/cdn/: the same SDK as the npm package's dist/main.js (a classic
 *   script that defines that release's globals) and dist/main.esm.js, which the
 *   server serves at /sdk/npm/@hubspot/calling-extensions-sdk@<version>/ with the
 *   release written in (emulator/node/pages/sdk-cdn.ts). No source maps: the release is
 *   written into the file after the build.
 */
const UMD_GLOBAL = 'CallingExtensionsSdk'

/** One file of dist/sdk/cdn/, minified for the browser with everything bundled. */
function cdnBuild(name: string, entry: string, format: 'iife' | 'esm'): Options {
  return { entry: { [name]: entry }, outDir: 'dist/sdk/cdn', format, platform: 'browser', target: 'es2022', minify: true, noExternal: [/.*/], outExtension: () => ({ js: '.js' }) }
}

export default defineConfig([
  {
    entry: {
      cli: 'package/cli.ts',
      api: 'package/api.ts',
      msw: 'package/msw.ts',
      sdk: 'package/sdk.ts',
      'sdk-widget': 'package/sdk-widget.ts',
      'sdk-host': 'package/sdk-host.ts',
      playwright: 'package/playwright.ts',
      'kit.config': 'kit/kit.config.ts',
      'conformance.spec': 'kit/conformance.spec.ts',
      'readiness-reporter': 'kit/readiness-reporter.ts',
    },
    outDir: 'lib',
    format: 'esm',
    platform: 'node',
    target: 'node22',
    splitting: true,
    treeshake: true,
    clean: ['lib/*.js', 'lib/*.map'],
    sourcemap: true,
    dts: false,
    external: ['vite', '@playwright/test'],
    onSuccess: async () => {
      await Promise.all([copyFile('shared/ui/tokens.css', 'lib/tokens.css'), copyFile('kit/report/report.css', 'lib/report.css')])
    },
  },
  {
    entry: { 'calling-extensions': 'package/sdk-browser.ts' },
    outDir: 'dist/sdk',
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: true,
    noExternal: [/.*/],
    outExtension: () => ({ js: '.js' }),
  },
  cdnBuild('main', 'package/sdk-cdn-script.ts', 'iife'),
  cdnBuild('main.esm', 'package/sdk-cdn-module.ts', 'esm'),
  {
    entry: { 'calling-extensions.umd': 'package/sdk-browser.ts' },
    outDir: 'dist/sdk',
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: true,
    noExternal: [/.*/],
    globalName: `${UMD_GLOBAL}Module`,
    outExtension: () => ({ js: '.js' }),
    // UMD: CommonJS, AMD, else a global. The global is the module namespace plus the class itself as `default`.
    footer: {
      js: `(function(m){var e=m;if(typeof module==='object'&&module.exports)module.exports=e;else if(typeof define==='function'&&define.amd)define([],function(){return e});else globalThis.${UMD_GLOBAL}=e})(${UMD_GLOBAL}Module);`,
    },
  },
])
