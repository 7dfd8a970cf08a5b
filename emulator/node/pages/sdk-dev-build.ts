/**
 * The calling SDK's browser builds made from the sources on demand, for a
 * server that serves the pages from the sources (`npm start`, Vite in
 * middleware mode): a fresh clone has no dist/sdk/, and the CDN URLs the
 * banner prints must answer all the same. Each file is built once, in memory,
 * with the options `npm run build` uses (sdk-builds.ts), on its first request;
 * a change to any source the server watches makes the next request build it
 * again.
 */
import { basename, dirname, join, resolve } from 'node:path'
import { SDK_TARGET, sdkBuildOf, type SdkBuild } from './sdk-builds.ts'
import type { SdkFiles } from './sdk-cdn.ts'

/** A build that failed (a syntax error in a source being edited, say): its first message, for the 500 answer. */
export class SdkBuildError extends Error {
  override name = 'SdkBuildError'
}

export class SdkDevBuilds implements SdkFiles {
  /** Each build's output files by their path under dist/sdk/ (the script, and its map when it has one). */
  readonly #builds = new Map<string, Promise<Map<string, Uint8Array>>>()
  readonly changing = true

  constructor(private readonly root: string) {}

  /** Forget every build: the next request builds again from the sources. */
  invalidate(): void {
    this.#builds.clear()
  }

  async read(file: string): Promise<Uint8Array | null> {
    const build = sdkBuildOf(file)
    if (!build) return null
    let outputs = this.#builds.get(build.file)
    if (!outputs) {
      outputs = this.#build(build)
      this.#builds.set(build.file, outputs)
      // A failed build is not kept: the next request tries again (after the fix).
      outputs.catch(() => this.#builds.get(build.file) === outputs && this.#builds.delete(build.file))
    }
    return (await outputs).get(file) ?? null
  }

  async #build(build: SdkBuild): Promise<Map<string, Uint8Array>> {
    const { build: esbuild } = await import('esbuild')
    const outdir = resolve(this.root, 'dist', 'sdk')
    let result
    try {
      result = await esbuild({
        entryPoints: [resolve(this.root, build.entry)],
        outfile: join(outdir, build.file),
        bundle: true,
        format: build.format,
        ...SDK_TARGET,
        sourcemap: build.sourcemap ? 'external' : false,
        write: false,
        logLevel: 'silent',
        ...(build.globalName && { globalName: build.globalName }),
        ...(build.footer && { footer: { js: build.footer } }),
      })
    } catch (error) {
      const first = (error as { errors?: { text: string; location?: { file: string; line: number } | null }[] }).errors?.[0]
      throw new SdkBuildError(first ? `${first.location ? `${first.location.file}:${first.location.line}: ` : ''}${first.text}` : String(error))
    }
    const files = new Map<string, Uint8Array>()
    const dir = dirname(build.file)
    for (const output of result.outputFiles ?? []) files.set(dir === '.' ? basename(output.path) : `${dir}/${basename(output.path)}`, output.contents)
    return files
  }
}
