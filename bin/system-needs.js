// The tests' system tools, in one list: `npm test` runs this first. As root with apt (CI, a fresh container) it
// installs what is missing from Debian; elsewhere the suites that need a missing tool skip themselves
// (test/support/system-needs.ts), and the run ends with a block naming them (never with CI set: they fail).
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const onPath = (name) => (process.env.PATH ?? '').split(delimiter).some((dir) => dir && isExecutable(join(dir, name)));
const python = (modules) => () =>
  isExecutable('/usr/bin/python3') &&
  spawnSync('/usr/bin/python3', ['-c', modules.map((m) => `import ${m}`).join(';')], { stdio: 'ignore' }).status === 0;

/** name -> what the tests need it for, how to tell it is there, and the Debian packages that bring it. */
export const SYSTEM_NEEDS = {
  ffmpeg: {
    why: 'the audio decoder and ffmpeg-version tests (others fall back to the packaged ffmpeg)',
    present: () => onPath('ffmpeg') && onPath('ffprobe'),
    packages: ['ffmpeg'],
  },
  pocketsphinx: {
    why: 'the local speech-to-text engine',
    present: () =>
      onPath('pocketsphinx_continuous') && isExecutable('/usr/share/pocketsphinx/model/en-us/en-us.lm.bin', false),
    packages: ['pocketsphinx', 'pocketsphinx-en-us'],
  },
  chromium: {
    why: 'the website, consent and MCP App tests in a browser',
    present: () => isExecutable(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'),
    packages: ['chromium'],
  },
  python: {
    why: 'the Python client (built as a wheel, tested with pytest)',
    present: python(['venv', 'build', 'hatchling', 'httpx', 'pytest']),
    packages: ['python3-venv', 'python3-build', 'python3-hatchling', 'python3-httpx', 'python3-pytest'],
  },
};

export const installCommand = (names) => `apt-get install ${names.flatMap((n) => SYSTEM_NEEDS[n].packages).join(' ')}`;

export const missingNeeds = () => Object.keys(SYSTEM_NEEDS).filter((n) => !SYSTEM_NEEDS[n].present());

function isExecutable(path, executable = true) {
  try {
    accessSync(path, executable ? constants.X_OK : constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

function canInstall() {
  return process.getuid?.() === 0 && onPath('apt-get') && !process.env.SUBTEXT_TEST_NO_INSTALL;
}

function provision() {
  const missing = missingNeeds();
  if (missing.length === 0) return;
  if (!canInstall()) {
    console.log(`system tools missing (${missing.join(', ')}): their suites will be skipped; see the end of the run`);
    return;
  }
  console.log(`installing the tests' system tools from Debian: ${installCommand(missing)}`);
  const apt = (args) =>
    spawnSync('apt-get', args, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  if (
    apt(['update', '-qq']).status !== 0 ||
    apt(['install', '-y', '-qq', ...missing.flatMap((n) => SYSTEM_NEEDS[n].packages)]).status !== 0
  ) {
    console.error('apt-get failed: the suites that need these tools will fail with CI set, or be skipped');
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) provision();
