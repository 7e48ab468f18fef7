// Preloaded into a measured process: reports its peak resident set size on exit.
import { writeFileSync } from 'node:fs';

const target = process.env.NODESMITH_RSS_FILE;
if (target)
  process.on('exit', () => writeFileSync(target, String(process.resourceUsage().maxRSS * 1024)));
