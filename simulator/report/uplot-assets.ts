/**
 * uPlot (a small, well-kept chart library, MIT) is inlined into every report so the report opens
 * without network access. It is read from the installed package: the CLI's bundle keeps
 * packages external, so the same path works from source and from `dist/`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export interface ChartAssets {
  readonly script: string;
  readonly style: string;
}

export function uplotAssets(): ChartAssets {
  return {
    script: readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8'),
    style: readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8'),
  };
}
