// `npm test` after the linter: the type check and the test suites side by side. tsc works on one core
// for some 15 s, time in which the suites would otherwise wait; it prints only its errors, which then
// fail the run once the suites are done. Arguments go to vitest (`npm test -- <filter>`).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = (name) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));
const run = (name, args) =>
  new Promise((resolve) => {
    const child = spawn(bin(name), args, { stdio: 'inherit' });
    child.once('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const [typecheck, suites] = await Promise.all([run('tsc', ['-p', 'tsconfig.json']), run('vitest', ['run', ...process.argv.slice(2)])]);
if (typecheck !== 0) console.error('\nThe type check failed (tsc -p tsconfig.json): its errors are above.');
process.exit(typecheck || suites);
