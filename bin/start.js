// `npm start`: check the Node version, then run the service in this process.
import { runTypeScript } from './run-typescript.js';

// The mmap threshold the start script sets is for this process (glibc read it at exec); the programs it starts
// (the embedded PostgreSQL, ffmpeg) keep glibc's own behaviour.
if (process.env.GLIBC_TUNABLES === 'glibc.malloc.mmap_threshold=65536') delete process.env.GLIBC_TUNABLES;

await runTypeScript('../src/main.ts');
