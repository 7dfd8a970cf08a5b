/**
 * Turn off zod's JIT before any schema is built.
 *
 * zod 4 compiles object schemas with `new Function`, after probing whether
 * eval is allowed. Under the harness's Content-Security-Policy (no
 * 'unsafe-eval') the probe is refused, and Chromium reports the refusal as a
 * `securitypolicyviolation` even though zod catches it. With `jitless` zod
 * never probes. This module must be the first import of the entry point:
 * schemas read the flag when they are constructed.
 */
import { z } from 'zod'

z.config({ jitless: true })
