/**
 * The browser builds of the calling SDK that the server serves under /sdk/
 * (sdk-cdn.ts): the one table of what each file is built from and how. `npm
 * run build` writes them to dist/sdk/ (tsup.config.ts maps each entry to a tsup
 * build); `npm start` from the sources, without a build, makes the one asked
 * for in memory on its first request (sdk-dev-build.ts), so every SDK URL its
 * banner prints answers on a fresh clone.
 */

/** The global of the UMD build: the module namespace, plus the class itself as `default`. */
const UMD_GLOBAL = 'CallingExtensionsSdk'

export interface SdkBuild {
  /** Path under dist/sdk/. */
  readonly file: string
  /** Source module, relative to the repository root. */
  readonly entry: string
  readonly format: 'esm' | 'iife'
  /** A source map beside the file (`<file>.map`); the CDN files have none: their release is written in after the build. */
  readonly sourcemap: boolean
  readonly globalName?: string
  readonly footer?: string
}

export const SDK_BUILDS: readonly SdkBuild[] = [
  // What the real CRM's CDN URL serves, /sdk/<version>/calling-extensions.js: an ES module.
  { file: 'calling-extensions.js', entry: 'package/sdk-browser.ts', format: 'esm', sourcemap: true },
  // The same for a <script> tag: UMD (CommonJS, AMD, else a global).
  {
    file: 'calling-extensions.umd.js',
    entry: 'package/sdk-browser.ts',
    format: 'iife',
    sourcemap: true,
    globalName: `${UMD_GLOBAL}Module`,
    footer: `(function(m){var e=m;if(typeof module==='object'&&module.exports)module.exports=e;else if(typeof define==='function'&&define.amd)define([],function(){return e});else globalThis.${UMD_GLOBAL}=e})(${UMD_GLOBAL}Module);`,
  },
  // The npm package's dist/main.js as the public CDNs serve it (a classic script defining that release's globals) and dist/main.esm.js.
  { file: 'cdn/main.js', entry: 'package/sdk-cdn-script.ts', format: 'iife', sourcemap: false },
  { file: 'cdn/main.esm.js', entry: 'package/sdk-cdn-module.ts', format: 'esm', sourcemap: false },
]

/** Shared by every SDK build: a minified browser bundle with every dependency inside. */
export const SDK_TARGET = { platform: 'browser', target: 'es2022', minify: true } as const

/** The build that makes `file` (a path under dist/sdk/, a `.map` names its script's build); undefined for none. */
export function sdkBuildOf(file: string): SdkBuild | undefined {
  const script = file.endsWith('.map') ? file.slice(0, -4) : file
  const build = SDK_BUILDS.find((b) => b.file === script)
  return build && (script === file || build.sourcemap) ? build : undefined
}
