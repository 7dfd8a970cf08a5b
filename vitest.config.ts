import { defineConfig, mergeConfig } from 'vitest/config'
import viteConfig from './vite.config.ts'

/**
 * Two projects: the DOM-free core of shared/api and shared/traffic run under plain Node (which
 * proves it needs no DOM); everything else runs under jsdom.
 */
export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      globals: true,
      restoreMocks: true,
      // Vitest's default leaves one core idle; on a 2-core machine that halves
      // throughput (measured: 76 s with one worker, 46 s with two).
      maxWorkers: '100%',
      projects: [
        {
          extends: true,
          test: {
            name: 'node',
            environment: 'node',
            include: ['shared/api/**/*.test.ts', 'shared/traffic/**/*.test.ts', 'server/**/*.test.ts', 'scripts/**/*.test.ts', 'e2e/kit/**/*.test.ts', 'package/**/*.test.ts'],
          },
        },
        {
          extends: true,
          test: {
            name: 'dom',
            environment: 'jsdom',
            include: ['{shared,widget,host-harness}/**/*.test.{ts,tsx}'],
            exclude: ['shared/api/**', 'shared/traffic/**', '**/node_modules/**'],
            setupFiles: ['scripts/vitest-setup.ts'],
          },
        },
      ],
    },
  }),
)
