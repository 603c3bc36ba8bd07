// Keeps `npm ci` working where the registry serves only some platform builds of a package.
// The registry reachable from our machines has turbo's linux binaries but not its darwin/windows
// ones, so `npm install` leaves them out of package-lock.json and `npm ci` then refuses the lock.
// This adds them back by version only (npm skips them by os/cpu, so nothing is ever fetched).
// Run after changing dependencies: `node scripts/lock-platforms.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';

const PLATFORMS = {
  'darwin-64': ['darwin', 'x64'],
  'darwin-arm64': ['darwin', 'arm64'],
  'linux-64': ['linux', 'x64'],
  'linux-arm64': ['linux', 'arm64'],
  'windows-64': ['win32', 'x64'],
  'windows-arm64': ['win32', 'arm64'],
};

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const turbo = lock.packages['node_modules/turbo'];
let added = 0;
for (const [name, version] of Object.entries(turbo?.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`;
  if (lock.packages[key]) continue;
  const [os, cpu] = PLATFORMS[name.split('/')[1]] ?? [];
  if (!os) continue;
  lock.packages[key] = { version, cpu: [cpu], dev: true, license: 'MIT', optional: true, os: [os] };
  added++;
}
const [root, ...rest] = Object.entries(lock.packages);
lock.packages = Object.fromEntries([root, ...rest.sort(([a], [b]) => (a < b ? -1 : 1))]);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock-platforms: ${added} entr${added === 1 ? 'y' : 'ies'} added`);
