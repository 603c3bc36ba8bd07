import { describe, expect, it } from 'vitest';
import { BusUnavailableError, DomainError } from './bus.ts';
import { isEngineUnavailable } from './engine.ts';

describe('isEngineUnavailable', () => {
  const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

  it.each([
    ['PostgreSQL refusing connections', coded('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['PostgreSQL shutting down (57P01)', coded('terminating connection due to administrator command', '57P01')],
    ['PostgreSQL starting up (57P03)', coded('the database system is starting up', '57P03')],
    ['a connection exception (08006)', coded('connection failure', '08006')],
    ["node-postgres's broken client", new Error('Client has encountered a connection error and is not queryable')],
    ["node-postgres's lost connection", new Error('Connection terminated unexpectedly')],
    ["node-postgres's connect timeout", new Error('timeout exceeded when trying to connect')],
    ['NATS closed', coded('closed connection', 'CONNECTION_CLOSED')],
    ['a peer context not answering', new BusUnavailableError('qry.estates.get-estate', 'no responders')],
    ['a wrapped cause', new Error('save failed', { cause: coded('read ECONNRESET', 'ECONNRESET') })],
    ['every address refused', new AggregateError([coded('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], 'all failed')],
  ])('%s: yes', (_, error) => expect(isEngineUnavailable(error)).toBe(true));

  it.each([
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a unique violation', coded('duplicate key value violates unique constraint', '23505')],
    ['a domain refusal', new DomainError(404, ['estate not found'])],
    ['not an error', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('%s: no', (_, error) => expect(isEngineUnavailable(error)).toBe(false));
});
