/**
 * Turn off zod's JIT before any schema is built.
 *
 * zod 4 compiles object schemas with `new Function`, after probing whether
 * eval is allowed. Under the harness's Content-Security-Policy (no
 * 'unsafe-eval') the probe is refused, and Chromium reports the refusal as a
 * `securitypolicyviolation` even though zod catches it. With `jitless` zod
 * never probes. The entry point calls it first: schemas read the flag when
 * they are constructed. (A function rather than a bare side-effect import:
 * the package manifest declares `sideEffects: false` for the npm package's
 * tree-shaking, so the bundler may drop an import that only runs code.)
 */
import { z } from 'zod'

export function turnOffZodJit(): void {
  z.config({ jitless: true })
}
