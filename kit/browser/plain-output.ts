/**
 * The environment for a child process that runs Playwright and should print
 * no colour codes.
 *
 * Playwright's runner prints plain text for FORCE_COLOR=0, and sets
 * FORCE_COLOR=1 in its workers and web servers whatever it was given. Node
 * prints "The 'NO_COLOR' env is ignored due to the 'FORCE_COLOR' env being
 * set" in every process that has both, so NO_COLOR (which CI sets for
 * everything else) is taken out. A FORCE_COLOR the user set is kept.
 */
export function plainOutputEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NO_COLOR: _noColor, ...rest } = env
  return { ...rest, FORCE_COLOR: env.FORCE_COLOR ?? '0' }
}
