// The image's entry point: `node deploy/start.mjs services/estates/src/main.ts` runs that service's
// compiled JavaScript (services/estates/src/main.js; the image carries no TypeScript). Compose and
// Kubernetes name a service by its source's path, as `npm run start:<service>` does in a checkout.
const entry = process.argv[2] ?? 'services/gateway/src/main.ts';
if (!/^services\/[a-z-]+\/src\/[a-z-]+\.ts$/.test(entry)) {
  process.stderr.write(`deploy/start.mjs: ${entry} is not a service's entry point (services/<service>/src/main.ts)\n`);
  process.exit(1);
}
// The service sees its own arguments only, as when it is started directly.
process.argv.splice(2, 1);
await import(new URL(`../${entry.replace(/\.ts$/, '.js')}`, import.meta.url).href);
