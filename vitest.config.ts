import { defineConfig } from 'vitest/config';

// Tests run the TypeScript sources directly: the "@ashlar/source" export condition
// points every @ashlar/* package at its src/index.ts, so no build sits between an edit and a test.
export default defineConfig({
  resolve: { conditions: ['@ashlar/source'] },
  ssr: { resolve: { conditions: ['@ashlar/source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
