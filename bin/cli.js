// `npm run cli -- ...`: check the Node version, then run the operator CLI in this process.
import { runTypeScript } from './run-typescript.js';

await runTypeScript('../src/cli.ts');
