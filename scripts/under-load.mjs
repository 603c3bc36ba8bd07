// Runs a command with CPU-bound processes beside it, as on a contributor's busy laptop:
// `npm run test:under-load` runs `npm test` beside two of them; `node scripts/under-load.mjs bash .ci/run`
// the whole CI. UNDER_LOAD_PROCESSES sets how many (default 2). Exits with the command's code.
import { spawn } from 'node:child_process';

const count = Number(process.env['UNDER_LOAD_PROCESSES'] ?? 2);
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/under-load.mjs <command> [args...]');
  process.exit(2);
}

// Each spins on its own core as long as the command runs (a busy loop in a process of its own).
const burners = Array.from({ length: count }, () =>
  spawn(process.execPath, ['-e', 'let x = 0; for (;;) x = (x * 1103515245 + 12345) % 2147483648;'], { stdio: 'ignore' }),
);
console.log(
  `[under-load] ${count} CPU-bound processes (pids ${burners.map((b) => b.pid).join(', ')}) beside: ${[command, ...args].join(' ')}`,
);
const stop = () => {
  for (const burner of burners) burner.kill('SIGKILL');
};

const started = Date.now();
const child = spawn(command, args, { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  stop();
  console.log(`[under-load] ${command} ended (${signal ?? `exit ${code}`}) after ${Math.round((Date.now() - started) / 1000)} s`);
  process.exit(code ?? 1);
});
