// Loads a TypeScript entry point in this same process (no child process, so signals reach the service itself).
// Node >= 22.18 strips types natively; 22.12-22.17 need tsx's loader, registered in-process.
import './check-node.js';

export async function runTypeScript(entry) {
  if (!process.features.typescript) {
    const { register } = await import('tsx/esm/api');
    register();
  }
  await import(entry);
}
