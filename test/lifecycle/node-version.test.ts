// A Node.js too old for the stack stops `npm start`, `npm test` and the CLI at once, with one line saying which
// version was found and which is needed (before, Node 20 started the service and vitest died on Map.groupBy).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem } from '../../bin/check-node.js';
import { spawnNpm } from '../support/npm-start.ts';

describe('nodeVersionProblem', () => {
  it('accepts 22.12 and newer, refuses older ones naming both versions', () => {
    for (const ok of ['v22.12.0', 'v22.18.1', 'v23.0.0', 'v24.21.0', 'v25.1.0'])
      expect(nodeVersionProblem(ok)).toBeNull();
    expect(nodeVersionProblem('v20.19.2')).toBe(
      'Subtext needs Node.js 22.12 or newer (24 LTS recommended); this is Node.js v20.19.2. Install a newer one (https://nodejs.org, or nvm install 24) and run the command again.',
    );
    for (const old of ['v22.11.0', 'v21.7.3', 'v18.20.0'])
      expect(nodeVersionProblem(old)).toMatch(/needs Node.js 22.12 or newer.*this is Node.js v/);
  });
});

// The machine's own Node (Debian 12 ships 20) when it is older: the commands a newcomer types, run with it.
const OLD_NODE_DIR = '/usr/bin';
const oldNode = existsSync(`${OLD_NODE_DIR}/node`)
  ? execFileSync(`${OLD_NODE_DIR}/node`, ['--version'], { encoding: 'utf8' }).trim()
  : null;
const isOld = oldNode !== null && nodeVersionProblem(oldNode) !== null && existsSync(`${OLD_NODE_DIR}/npm`);

describe.runIf(isOld)(`with an old Node.js on PATH (${oldNode ?? 'none'} in ${OLD_NODE_DIR})`, () => {
  it.each([['start'], ['test'], ['run', 'cli', '--', 'accounts', 'list']])(
    'npm %s stops at once with one line',
    async (...args) => {
      const s = spawnNpm(args, { PATH: `${OLD_NODE_DIR}:${process.env.PATH}` });
      const { code } = await s.exited;
      expect(code).toBe(1);
      expect(s.plainLines()).toEqual([nodeVersionProblem(oldNode!)]);
    },
    60_000,
  );
});
