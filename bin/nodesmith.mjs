#!/usr/bin/env node
// Launcher: the CLI is bundled into dist/ by `npm ci` (the `prepare` script) or `npm run build`.
await import('../dist/nodesmith.mjs');
