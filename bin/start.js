// `npm start`: check the Node version, then run the service in this process.
import { runTypeScript } from './run-typescript.js';

await runTypeScript('../src/main.ts');
