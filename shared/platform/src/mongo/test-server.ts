import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';

/**
 * The MongoDB server the Mongo suites use: `RENOPATH_TEST_MONGO_URL` when set, else a single-node
 * replica set started by testcontainers where a Docker engine answers, else none (the suites skip,
 * saying why). Never a fake server.
 */
export interface TestMongo {
  url: string;
  /** Where the server came from, for the suite's name. */
  source: string;
  /** A database of its own for one suite run. */
  database: string;
  /** Drops the run's database and stops a container this helper started. */
  stop(): Promise<void>;
}

const IMAGE = process.env.RENOPATH_TEST_MONGO_IMAGE ?? 'mongo:7';

/** The Docker endpoints testcontainers tries by default: DOCKER_HOST, then the usual sockets. */
function dockerEndpoints(): Array<{ socketPath: string } | { host: string; port: number }> {
  const endpoints: Array<{ socketPath: string } | { host: string; port: number }> = [];
  const host = process.env.DOCKER_HOST;
  if (host?.startsWith('unix://')) endpoints.push({ socketPath: host.slice('unix://'.length) });
  else if (host?.startsWith('tcp://')) {
    const url = new URL(host.replace(/^tcp:/, 'http:'));
    endpoints.push({ host: url.hostname, port: Number(url.port || 2375) });
  }
  const sockets = [
    '/var/run/docker.sock',
    join(homedir(), '.docker', 'run', 'docker.sock'),
    join(homedir(), '.docker', 'desktop', 'docker.sock'),
  ];
  if (process.env.XDG_RUNTIME_DIR) sockets.push(join(process.env.XDG_RUNTIME_DIR, 'docker.sock'));
  sockets.push(join('/run', 'user', String(userInfo().uid), 'docker.sock'));
  for (const socketPath of sockets) if (existsSync(socketPath)) endpoints.push({ socketPath });
  return endpoints;
}

/** `GET /_ping` on each endpoint, each bounded by a short timeout: a missing engine costs at most a second or so. */
export async function dockerAnswers(timeoutMs = 1000): Promise<boolean> {
  for (const endpoint of dockerEndpoints()) {
    const ok = await new Promise<boolean>((resolve) => {
      const req = request({ ...endpoint, path: '/_ping', method: 'GET', timeout: timeoutMs }, (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      });
      req.once('timeout', () => req.destroy());
      req.once('error', () => resolve(false));
      req.end();
    });
    if (ok) return true;
  }
  return false;
}

async function dropDatabase(url: string, database: string): Promise<void> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
  try {
    await client.db(database).dropDatabase();
  } finally {
    await client.close();
  }
}

/** A server for a suite, or the reason there is none. */
export async function startTestMongo(label: string): Promise<TestMongo | { skip: string }> {
  const database = `renopath_test_${label}_${randomUUID().replaceAll('-', '').slice(0, 8)}`;
  const given = process.env.RENOPATH_TEST_MONGO_URL;
  if (given) {
    return { url: given, source: 'RENOPATH_TEST_MONGO_URL', database, stop: () => dropDatabase(given, database) };
  }
  if (!(await dockerAnswers())) {
    return {
      skip: `no MongoDB: set RENOPATH_TEST_MONGO_URL=mongodb://host:port (a replica set runs the transaction path too), or run where a Docker engine answers so testcontainers starts ${IMAGE}`,
    };
  }
  // Loaded only when there is an engine: the module is large and has nothing to do otherwise.
  const { MongoDBContainer } = await import('@testcontainers/mongodb');
  const container = await new MongoDBContainer(IMAGE).start();
  // The replica set names its member by the container's own host name: connect directly to the mapped port.
  const url = `${container.getConnectionString()}/?directConnection=true`;
  return {
    url,
    source: `testcontainers ${IMAGE}`,
    database,
    stop: async () => {
      await container.stop();
    },
  };
}
