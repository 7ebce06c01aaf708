// Installs the packed client package into a consumer folder the way npm would lay it out, without a registry: the
// tarball unpacked as node_modules/@subtext/client, each of its dependencies linked from the repository's
// node_modules (after checking that the version there is the one the package pins). No network, no npm install.
import { execFile } from 'node:child_process';
import { cp, mkdir, readFile, rename, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const run = promisify(execFile);
const CLIENT_DIR = join(REPO_ROOT, 'clients/typescript');
const CONSUMER_DIR = join(REPO_ROOT, 'test/clients/consumer');
const TARBALL = 'subtext-client.tgz';

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}
const readManifest = async (dir: string): Promise<Manifest> =>
  JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));

/** `npm pack` (its prepack builds dist/) into `dir`, as TARBALL; the packed file list. */
export async function packClient(dir: string): Promise<string[]> {
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], {
    cwd: CLIENT_DIR,
    maxBuffer: 16 << 20,
  }).catch((e: { stdout?: string; message: string }) => {
    throw new Error(`npm pack failed: ${e.message}\n${e.stdout ?? ''}`);
  });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  await rename(join(dir, packed!.filename), join(dir, TARBALL));
  return packed!.files.map((f) => f.path).sort();
}

/** The consumer package copied into `dir`, with the tarball unpacked and the dependencies linked. */
export async function installConsumer(dir: string): Promise<void> {
  await cp(CONSUMER_DIR, dir, { recursive: true });
  const target = join(dir, 'node_modules/@subtext/client');
  await mkdir(target, { recursive: true });
  await run('tar', ['-xzf', join(dir, TARBALL), '-C', target, '--strip-components=1']);
  const client = await readManifest(target);
  const consumer = await readManifest(dir);
  for (const [name, wanted] of Object.entries({ ...client.dependencies, ...consumer.devDependencies })) {
    const installed = await readManifest(join(REPO_ROOT, 'node_modules', name));
    if (wanted !== '*' && installed.version !== wanted) {
      throw new Error(`${name}: the package pins ${wanted}, the repository has ${installed.version}`);
    }
    const link = join(dir, 'node_modules', name);
    await mkdir(dirname(link), { recursive: true });
    await symlink(join(REPO_ROOT, 'node_modules', name), link, 'dir');
  }
}

/** The repository's TypeScript (7), run on a project in `cwd`; never throws, answers the exit code and output. */
export async function tsc(cwd: string, project: string): Promise<{ code: number; output: string }> {
  const bin = join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
  try {
    const { stdout } = await run(process.execPath, [bin, '-p', project, '--pretty', 'false'], { cwd });
    return { code: 0, output: stdout };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}
