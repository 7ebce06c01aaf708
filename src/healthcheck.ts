import { parseConfig } from './config.ts';

// The container's health probe: GET /healthz (or the path given) on PORT, or on METRICS_PORT for MODE=worker (a
// worker serves only that listener). Exits 0 when it answers 200 within 2 s.
const config = parseConfig(process.env);
const port = config.MODE === 'worker' ? config.METRICS_PORT : config.PORT;
if (port === undefined) {
  console.error('MODE=worker serves HTTP only on METRICS_PORT: set it to probe the worker');
  process.exit(1);
}
const path = process.argv[2] ?? '/healthz';

try {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(2000) });
  process.exit(res.status === 200 ? 0 : 1);
} catch {
  process.exit(1);
}
