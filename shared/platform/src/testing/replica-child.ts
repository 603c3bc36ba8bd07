/**
 * Child process of the replica kill test: one replica of the test context (replica-context.ts)
 * over the stores and bus of RENOPATH_* (PlatformEnv). Prints `ready` once it serves, then
 * `leading` / `following` whenever that changes, until the parent kills it.
 * Usage: tsx replica-child.ts <context> <label>
 */
import { pino } from 'pino';
import { PlatformEnv, platformConfig } from '../service/adapters.ts';
import { startReplica } from './replica-context.ts';

const [context, label] = process.argv.slice(2);
if (!context || !label) throw new Error('usage: replica-child.ts <context> <label>');

const replica = await startReplica(
  platformConfig(PlatformEnv.parse(process.env)),
  context,
  label,
  pino({ level: 'warn' }, pino.destination(2)),
);
process.stdout.write('ready\n');
let leading: boolean | null = null;
setInterval(() => {
  if (replica.runtime.leadership.leading === leading) return;
  leading = replica.runtime.leadership.leading;
  process.stdout.write(leading ? 'leading\n' : 'following\n');
}, 10);
process.on('SIGTERM', () => void replica.close().then(() => process.exit(0)));
