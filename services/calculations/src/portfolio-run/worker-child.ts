// A portfolio worker process for portfolio-nats.int.spec.ts: serves the batches of any coordinator on
// the NATS bus (prefix and stream from its arguments) and says `batch <n>` for each one it computes.
import { connectNatsBus } from '@renopath/platform';
import { PortfolioSubjects } from '@renopath/contracts';
import { inlineComputer, servePortfolioWorker, type BatchComputer } from './index.ts';

const [servers, stream, prefix, name] = process.argv.slice(2);
const bus = await connectNatsBus({ servers: servers!, streamName: stream!, subjectPrefix: prefix!, name: name! });
const inline = inlineComputer();
const counting: BatchComputer = {
  async compute(rows, year) {
    const result = await inline.compute(rows, year);
    console.log(`batch ${rows[0]?.row_number ?? 0}`);
    return result;
  },
  get computeCpuUs() {
    return inline.computeCpuUs;
  },
  close: () => inline.close(),
};
await servePortfolioWorker(bus, counting, PortfolioSubjects.computeBatch);
console.log('ready');
process.on('SIGTERM', () => void bus.close().finally(() => process.exit(0)));
