// ESLint (flat config): `npm run lint`, a step of `npm test`.
//
// - JavaScript's and typescript-eslint's recommended rules, without type information: the typed rule sets
//   make ESLint build a whole TypeScript program with the JavaScript compiler (beside the native `tsc` that
//   `npm run typecheck` runs) and took 3.4x the CPU time (README.md, "Development tooling").
// - The React hooks rules (the rules of hooks, exhaustive effect dependencies) on the React code.
// - One URL rule (ringside/url-sink, tools/eslint/url-sinks.mjs): every src, href, navigation and HTML URL
//   attribute takes a literal or shared/url/safe-url.ts's output (docs/urls.md).
// - The folders' boundaries, each with a message that names the boundary and says why it is there (README.md
//   "Boundaries", host-harness/README.md, widget/README.md, emulator/core/README.md).
import { readdirSync } from 'node:fs'
import js from '@eslint/js'
import { defineConfig, globalIgnores } from 'eslint/config'
import importX from 'eslint-plugin-import-x'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import ringside from './tools/eslint/url-sinks.mjs'

const root = import.meta.dirname
const dirsOf = (dir) =>
  readdirSync(`${root}/${dir}`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)

// ---------------------------------------------------------------------------------------------------------
// Boundaries between folders (import-x/no-restricted-paths: it resolves each import to a file, so a relative
// path of any depth is caught, and only what really lies in a folder is).

/**
 * The product's source files, as paths from the root: what the folders below hold, but tests (*.test.*, *.spec.*)
 * and test support (testing/ folders and testing.ts files, emulator/node/test/), which may reach past a face to
 * what they test.
 */
const PRODUCT_DIRS = ['emulator/core', 'emulator/node', 'emulator/browser', 'kit', 'package', 'host-harness', 'widget', 'shared', 'oauth']
const productFiles = PRODUCT_DIRS.flatMap((dir) =>
  readdirSync(`${root}/${dir}`, { recursive: true, encoding: 'utf8' })
    .map((file) => `./${dir}/${file}`)
    .filter((file) => /\.(ts|tsx|mjs)$/.test(file) && !/\.(test|spec)\.tsx?$/.test(file))
    .filter((file) => !file.split('/').includes('testing') && !file.endsWith('/testing.ts') && !file.startsWith('./emulator/node/test/')),
)
const product = (glob) => `${root}/${glob}`

// The floors, bottom up: shared/ (the SDK, CRM facts, traffic model) → emulator/core/ → its adapters
// emulator/node/ and emulator/browser/ → the pages (host-harness/, widget/, oauth/), kit/ and package/ → e2e/
// and tools/. An import runs down or sideways within a floor, never up (docs/architecture.md draws it).
const boundaryZones = [
  {
    target: productFiles.filter((file) => file.startsWith('./shared/')),
    from: ['./emulator', './host-harness', './widget', './oauth', './kit', './package', './e2e', './tools'],
    message:
      'Boundary "shared/ is the bottom floor": the SDK, the CRM facts and the traffic model run in the widget, the harness, the emulator and the package alike, so shared/ imports nothing above it. Move what it needs down into shared/.',
  },
  {
    target: './widget',
    from: ['./host-harness', './emulator', './kit', './package', './oauth'],
    message:
      'Boundary "widget/ imports only shared/": the reference widget stands for a vendor\'s widget, which runs in its own iframe on another origin and knows the CRM only through the calling SDK and its REST API. Put what it needs in shared/.',
  },
  {
    target: './host-harness',
    from: './widget',
    message:
      'Boundary "host-harness/ never imports widget/": the harness must work with any vendor\'s widget, so it may not depend on ours. Put what both need in shared/.',
  },
  {
    target: './emulator/core',
    from: ['./emulator/node', './emulator/browser', './host-harness', './widget', './oauth', './kit', './package', './e2e', './tools'],
    message:
      'Boundary "emulator/core/ is the service, not a host of it": the Request → Response service runs under Node, in a page and in the tests alike, so it imports only shared/ and itself. Its adapters (emulator/node/, emulator/browser/) import it, not the other way round.',
  },
  {
    target: ['./emulator/node', './emulator/browser', './host-harness', './oauth', './kit', './package', './e2e'],
    from: './emulator/core',
    except: ['./index.ts'],
    message:
      'Boundary "the emulated CRM\'s core has one face": import emulator/core/index.ts, not a file behind it. If the face lacks what you need, add it there, so what the adapters rely on stays one list.',
  },
  {
    target: productFiles.filter((file) => file.startsWith('./emulator/node/') || file.startsWith('./emulator/browser/')),
    from: ['./host-harness', './widget', './oauth', './kit', './package', './e2e'],
    message:
      'Boundary "the emulator\'s adapters import only the core and shared/": the server and the in-page service host the emulated CRM for every page, backend and test, so they know nothing of the pages, the kit or the package above them.',
  },
  {
    target: productFiles.filter((file) => file.startsWith('./kit/')),
    from: './package',
    message:
      'Boundary "the package imports the kit, not the other way round": package/ holds the entry points and the CLI, over the kit they ship; what both need lives in kit/ (or below).',
  },
  {
    target: ['./kit', './package'],
    from: './e2e',
    message:
      'Boundary "what the package ships never lives under e2e/": kit/ and package/ are shipped; e2e/ holds this repository\'s own specs, fixtures and support. Move what they need into kit/ or package/.',
  },
  {
    target: productFiles,
    from: [product('emulator/testing/**'), product('e2e/**'), product('emulator/node/test/**'), product('**/testing/**'), product('**/testing.ts')],
    message:
      'Boundary "test support never lives in product code": emulator/testing/, emulator/node/test/, e2e/ and every testing/ folder hold fakes, corpora and helpers for the tests; the product may not import them.',
  },
  {
    target: './shared/crm',
    from: ['./shared', './widget', './host-harness', './emulator', './kit', './package', './tools', './e2e'],
    // Two leaves that import nothing: safe-url.ts, the one URL rule (docs/urls.md), with which redirect-urls.ts checks a
    // URL; and ports.mjs, the default ports (docs/ports.md), from which reference-widget.ts derives the widget's URL.
    except: ['./crm', './url/safe-url.ts', './ports.mjs'],
    message:
      'Boundary "shared/crm/ imports nothing of ours" (but two leaves: the URL rule, shared/url/safe-url.ts, and the default ports, shared/ports.mjs): the CRM facts (objects, phone numbers, call statuses, caller ID) are the floor that protocol/, traffic/, the emulator and the harness all stand on; protocol/ imports crm/, never the other way round. Move what crm/ needs into crm/.',
  },
  {
    target: ['./shared', './emulator/core', './emulator/node'],
    from: './emulator/browser',
    message:
      'Boundary "only a page imports emulator/browser/": that adapter uses DOM-only APIs (SharedWorker, IndexedDB, MSW\'s service worker), while shared/, the core and the server also run in Node (server mode, the tests, the npm package). Import it from the page that starts the browser-only mode instead.',
  },
]

// The harness's feature boundary: every folder of host-harness/ but lib/ is a feature (records/, timeline/,
// panels/, layout/, calling/). A feature imports lib/ (what several features share) and the calling seam,
// never another feature; the root files (main.tsx, start.tsx, app.tsx) compose features. layout/ is the shell
// that holds the seam, so it alone may import the calling integration's public entry (calling/index.ts).
/** The one module through which the harness reaches the calling integration. */
const CALLING_SEAM = './layout/calling-seam.tsx'

const harnessFeatureZones = dirsOf('host-harness')
  .filter((dir) => dir !== 'lib')
  .map((feature) => ({
    target: `./host-harness/${feature}`,
    from: './host-harness',
    except: [`./${feature}`, './lib', CALLING_SEAM, ...(feature === 'layout' ? ['./calling'] : [])],
    message: `Boundary "a harness feature imports only host-harness/lib/ and the calling seam": host-harness/${feature}/ may not import another feature or the calling integration's insides. Move what several features use to host-harness/lib/; reach the calling integration through host-harness/layout/calling-seam.tsx.`,
  }))
harnessFeatureZones.push({
  target: './host-harness/lib',
  from: './host-harness',
  except: ['./lib'],
  message: 'Boundary "host-harness/lib/ imports no feature": lib/ is what the features share, so it may depend on shared/ only; a piece that needs a feature belongs to that feature.',
})
harnessFeatureZones.push({
  target: [...dirsOf('host-harness').filter((dir) => dir !== 'calling').map((dir) => `./host-harness/${dir}`), './host-harness/*.{ts,tsx}'],
  from: './host-harness/calling',
  // The calling integration's public entry, which the seam re-exports; the features' zones above keep them to the seam.
  except: ['./index.ts'],
  message:
    'Boundary "the harness reaches the calling integration only through its seam": import from host-harness/layout/calling-seam.tsx, which re-exports what the rest of the harness may use of host-harness/calling/.',
})

// Inside the calling integration: sub-features (dock/, inspector/, faults/, task-queue/) over a small core/ (the
// controller, runtime, store, settings and the host's wiring), composed by calling/index.ts.
const CALLING = './host-harness/calling'
const callingSubFeatures = dirsOf('host-harness/calling').filter((dir) => dir !== 'core')
harnessFeatureZones.push(
  ...callingSubFeatures.map((feature) => ({
    target: `${CALLING}/${feature}`,
    from: CALLING,
    except: [`./${feature}`, './core'],
    message: `Boundary "a calling sub-feature imports only calling/core/": host-harness/calling/${feature}/ may not import another sub-feature (${callingSubFeatures.filter((f) => f !== feature).join(', ')}) or calling/index.ts, so each can change without breaking the others. Move what two of them use to host-harness/calling/core/; index.ts composes them.`,
  })),
  {
    target: `${CALLING}/core`,
    from: CALLING,
    except: ['./core'],
    message:
      'Boundary "calling/core/ imports no sub-feature": the controller, runtime and store are what dock/, inspector/, faults/ and task-queue/ build on, so core may depend only on host-harness/lib/ and shared/. A sub-feature plugs into core through a hook (as the task queue does with setCallHooks), wired in calling/index.ts.',
  },
)

const NOT_IN_SHARED =
  'shared/ is what the widget, the harness, the API server and the npm package all import, in the browser and in Node: it stays free of UI frameworks and state libraries (the SDK must not make a vendor\'s widget load React).'
const frameworks = (what) => `Boundary "shared/ never imports ${what}". ${NOT_IN_SHARED}`
/** no-restricted-imports options for shared/: React, Zustand and XState (and, outside emulator/browser/, msw/browser). */
const sharedImports = (extraPaths = []) => ({
  paths: [
    { name: 'react', message: frameworks('React') },
    { name: 'react-dom', message: frameworks('React') },
    { name: 'zustand', message: frameworks('Zustand') },
    { name: 'xstate', message: frameworks('XState') },
    ...extraPaths,
  ],
  patterns: [
    { regex: '^(react|react-dom)/', message: frameworks('React') },
    { regex: '^zustand/', message: frameworks('Zustand') },
    { regex: '^@xstate/', message: frameworks('XState') },
  ],
})


export default defineConfig([
  globalIgnores(['dist/', 'dist-test/', 'lib/', 'reports/', 'test-results/', 'playwright-report/', 'blob-report/', '.ringside/', 'public/mockServiceWorker.js']),

  js.configs.recommended,
  tseslint.configs.recommended,

  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: root, zones: [...boundaryZones, ...harnessFeatureZones] },
      ],
      // A leading `_` marks a name left unused on purpose (a destructured key dropped from a copy, a callback's
      // unused parameter): the codebase's convention, in many files.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // `interface X extends Y {}` is how a class declares members it gets at run time (see below).
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },

  {
    files: ['emulator/browser/**'],
    rules: { 'no-restricted-imports': ['error', sharedImports()] },
  },
  {
    files: ['shared/**', 'emulator/core/**', 'emulator/testing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        sharedImports([
          {
            name: 'msw/browser',
            message:
              'Boundary "shared/ outside emulator/browser/ never imports DOM-only modules": msw/browser starts a service worker, which only a page can; the rest of shared/ also runs in Node. Keep it in emulator/browser/.',
          },
        ]),
      ],
    },
  },

  // The harness is the CRM's web app: it reaches the data only through the API, over HTTP. Of the emulator's core
  // it may know the types of what the API answers (an error body, the rate-limit settings), never run its code.
  {
    files: ['host-harness/**/*.{ts,tsx}', 'oauth/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', '**/testing/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/emulator/core/**'],
              allowTypeImports: true,
              message:
                'Boundary "the harness reaches the data only through the API": import only types from emulator/core/ (`import type`); call the API over HTTP (host-harness/lib/api-client.ts) for everything else.',
            },
          ],
        },
      ],
    },
  },

  // The React hooks rules: the rules of hooks and exhaustive effect dependencies. The plugin's `recommended` set
  // adds the React Compiler's diagnostics, which compile every component with Babel: that doubled the lint's
  // time (README.md, "Development tooling"), and this project does not build with the React Compiler.
  {
    files: ['widget/**/*.{ts,tsx}', 'host-harness/**/*.{ts,tsx}', 'oauth/**/*.{ts,tsx}', 'e2e/fixtures/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },

  // One URL rule: every value that becomes a src, href or navigation is a literal or passed shared/url/safe-url.ts.
  // Besides safeUrl/requireSafeUrl, these calls make URLs that need no check, each for the reason given:
  {
    files: ['**/*.{js,mjs,ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', '**/*.spec.ts', 'shared/protocol/testing/**', 'widget/testing/**'],
    plugins: { ringside },
    rules: {
      'ringside/url-sink': [
        'error',
        {
          safeCalls: [
            'safeUrl',
            'requireSafeUrl',
            // a blob: URL of bytes the page itself made (a download); only the page that made it can load it
            'URL.createObjectURL',
            // the harness's routes (host-harness/lib/hash-routes.ts, placement.ts): `#/…` and `?…#/…` references on the
            // page itself, ids URI-encoded (routes.test.ts walks hostile ids and types through them)
            'hrefs.*',
            'recordHref',
            'callingWindowUrl',
          ],
          transparentCalls: ['escapeHtml', 'escapeAttribute'],
        },
      ],
    },
  },

  // The SDK's classes get their send methods generated from the message catalogue onto the prototype; an interface
  // of the same name declares them to TypeScript. That merge is the design, not an accident.
  {
    files: ['shared/protocol/host.ts', 'shared/protocol/widget.ts'],
    rules: { '@typescript-eslint/no-unsafe-declaration-merging': 'off' },
  },
  // Test helpers hand parsed JSON bodies to assertions as `any` on purpose: tests walk arbitrary bodies.
  {
    files: ['**/*.test.{ts,tsx}', '**/testing.ts', '**/testing/**', 'e2e/**', 'kit/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // Playwright fixtures that use no other fixture still destructure their first argument: `async ({}, use) => …`.
  {
    files: ['e2e/**', 'kit/**', 'package/playwright.ts'],
    rules: { 'no-empty-pattern': ['error', { allowObjectPatternsAsParameters: true }] },
  },

])
