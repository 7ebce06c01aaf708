// Runs before anything else, on any Node: plain JavaScript that old versions parse. The stack needs Node >= 22.12
// (pg-boss 12, vitest 5, Map.groupBy); older ones would fail later with an obscure error.
const NEEDED = [22, 12];

export function nodeVersionProblem(version) {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  if (major > NEEDED[0] || (major === NEEDED[0] && minor >= NEEDED[1])) return null;
  return `Subtext needs Node.js ${NEEDED.join('.')} or newer (24 LTS recommended); this is Node.js ${version.replace(/^v?/, 'v')}. Install a newer one (https://nodejs.org, or nvm install 24) and run the command again.`;
}

const problem = nodeVersionProblem(process.version);
if (problem) {
  console.error(problem);
  process.exit(1);
}
