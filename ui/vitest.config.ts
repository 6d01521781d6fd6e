// Component tests of the widget's pages: jsdom, the Tauri IPC mocked with
// @tauri-apps/api/mocks. `npm test` runs them once, headless.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  esbuild: { jsx: 'automatic' },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // One worker per core of the 2-core CI machine: 47 s for the suite, where
    // one worker took 72 s (2026-11-29); no test came near its timeout.
    maxWorkers: 2,
    testTimeout: 10_000,
  },
});
