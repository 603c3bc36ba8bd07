// `npm run build`: the services as JavaScript under build/, laid out as the sources are, for the
// image's runtime stage (Dockerfile), which carries neither TypeScript nor tsx. tsc compiles and
// rewrites relative `./x.ts` imports; this script then rewrites the workspace imports
// (`@renopath/platform/x.ts`) and the workspace manifests' exports the same way, and copies what the
// code reads beside itself at run time (data/ folders, JSON, worker .mjs files, the manifests).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'build');
const WORKSPACES = ['shared', 'services'].flatMap((dir) => readdirSync(join(root, dir)).map((name) => join(dir, name)));

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

rmSync(out, { recursive: true, force: true });
// tsc reports each workspace import it leaves as `.ts` (TS2877) and emits it all the same; those are
// rewritten below. Any other error fails the build (npm test type-checks the same sources).
const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')], {
  encoding: 'utf8',
});
const errors = tsc.stdout.split('\n').filter((line) => /error TS\d+/.test(line) && !line.includes('error TS2877'));
if (tsc.status !== 0 && (errors.length > 0 || !tsc.stdout.includes('error TS2877'))) {
  process.stderr.write(`${errors.join('\n') || tsc.stdout || tsc.stderr}\n`);
  process.exit(1);
}

// `from '@renopath/platform/service/adapters.ts'` and `import('@renopath/x/y.ts')`: to the compiled file.
const WORKSPACE_IMPORT = /(['"])(@renopath\/[a-z-]+\/[^'"]+)\.ts\1/g;
for (const file of files(out)) {
  if (!file.endsWith('.js')) continue;
  const text = readFileSync(file, 'utf8');
  const rewritten = text.replace(WORKSPACE_IMPORT, (_m, quote, path) => `${quote}${path}.js${quote}`);
  if (rewritten !== text) writeFileSync(file, rewritten);
}

for (const workspace of WORKSPACES) {
  // What the sources read beside themselves: the files of src/ that are not TypeScript, and data/.
  const folders = ['src', 'data']
    .map((name) => join(root, workspace, name))
    .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory());
  for (const file of folders.flatMap((dir) => [...files(dir)])) {
    if (file.endsWith('.ts')) continue;
    const target = join(out, relative(root, file));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file, target);
  }
  // The manifest, its main export pointing at the JavaScript (the `.ts` subpaths were rewritten above).
  const manifest = JSON.parse(readFileSync(join(root, workspace, 'package.json'), 'utf8'));
  manifest.exports = { '.': './src/index.js', './*': './src/*' };
  mkdirSync(join(out, workspace), { recursive: true });
  writeFileSync(join(out, workspace, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}
console.log(`built ${relative(root, out)}/`);
