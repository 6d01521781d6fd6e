// Component tests of the widget's pages: jsdom, the Tauri IPC mocked with
// @tauri-apps/api/mocks. `npm test` runs them once, headless.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  esbuild: { jsx: 'automatic' },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // Modest on a 2-core machine; the whole suite takes seconds.
    maxWorkers: 1,
    testTimeout: 10_000,
  },
});
