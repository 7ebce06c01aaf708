// `npm start`: check the Node version, then run the service in this process.
import { runTypeScript } from './run-typescript.js';

// The mmap threshold the start script sets is for this process (glibc read it at exec); the programs it starts
// (the embedded PostgreSQL, ffmpeg) keep glibc's own behaviour.
if (process.env.GLIBC_TUNABLES === 'glibc.malloc.mmap_threshold=65536') delete process.env.GLIBC_TUNABLES;

// What a deployment runs: libraries skip their development-time work (trpc-to-openapi regenerates its OpenAPI
// document, tRPC adds stacks to errors). An explicit NODE_ENV is kept.
process.env.NODE_ENV ??= 'production';

await runTypeScript('../src/main.ts');
