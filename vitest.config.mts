import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: [],
    // The handlers log and emit metrics through Powertools; tests read reports, not stdout.
    env: { POWERTOOLS_LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
