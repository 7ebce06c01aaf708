// Loads a TypeScript entry point in this same process (no child process, so signals reach the service itself).
// Node >= 22.18 strips types natively (stripped once and kept: stripped-sources.js); 22.12-22.17 need tsx's loader,
// registered in-process.
import './check-node.js';
import { existsSync } from 'node:fs';
import { useStrippedSources } from './stripped-sources.js';

// Settings from ./.env (see .env.example); variables already in the environment win.
if (existsSync('.env')) process.loadEnvFile('.env');

export async function runTypeScript(entry) {
  if (!process.features.typescript) {
    const { register } = await import('tsx/esm/api');
    register();
  } else {
    useStrippedSources();
  }
  await import(entry);
}
