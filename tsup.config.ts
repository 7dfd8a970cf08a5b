import { copyFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { defineConfig, type Options } from 'tsup'
import { SDK_BUILDS, SDK_TARGET, type SdkBuild } from './emulator/node/pages/sdk-builds.ts'

/**
 * The npm package's code (`npm run build`, after the Vite build of the pages):
 * - lib/: the CLI and the entry points of the exports map, ES modules for
 *   Node 22 and later (dependencies stay external; types come from tsc,
 *   tsconfig.package.json), and the two stylesheets the HTML report inlines
 *   (shared/ui/tokens.css, kit/report/report.css), read from lib/ at run time;
 * - dist/sdk/: the browser builds of the calling SDK that the server serves
 *   under /sdk/ (the table: emulator/node/pages/sdk-builds.ts).
 */

/** One SDK build of emulator/node/pages/sdk-builds.ts as a tsup build into dist/sdk/. */
function sdkBuild(build: SdkBuild): Options {
  const name = basename(build.file, '.js')
  return {
    entry: { [name]: build.entry },
    outDir: join('dist/sdk', dirname(build.file)),
    format: build.format,
    ...SDK_TARGET,
    sourcemap: build.sourcemap,
    noExternal: [/.*/],
    outExtension: () => ({ js: '.js' }),
    ...(build.globalName && { globalName: build.globalName }),
    ...(build.footer && { footer: { js: build.footer } }),
  }
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
    // esbuild: only `npm start` from the sources builds the SDK with it (emulator/node/pages/sdk-dev-build.ts); the package ships the build.
    external: ['vite', '@playwright/test', 'esbuild'],
    onSuccess: async () => {
      await Promise.all([copyFile('shared/ui/tokens.css', 'lib/tokens.css'), copyFile('kit/report/report.css', 'lib/report.css')])
    },
  },
  ...SDK_BUILDS.map(sdkBuild),
])
