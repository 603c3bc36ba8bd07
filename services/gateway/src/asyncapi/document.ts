import { z } from 'zod';
import { EventEnvelope, eventSubject, PUBLISHED_EVENTS } from '@renopath/contracts';
import type { platformConfig } from '@renopath/platform/service/adapters.ts';

type PlatformConfig = ReturnType<typeof platformConfig>;

type Json = Record<string, unknown>;

export interface AsyncApiOptions {
  /** The NATS server a subscriber connects to (as the operator publishes it); only named in the document. */
  natsUrl: string;
  /** RENOPATH_NATS_STREAM and RENOPATH_NATS_PREFIX of the deployment, when it has them. */
  stream: string;
  prefix: string | null;
}

/**
 * The AsyncAPI 3.0 document of the domain events (`/asyncapi.json`), generated from the zod event
 * contracts (`PUBLISHED_EVENTS`, shared/contracts/src/events.ts): one channel per event type, its
 * address the JetStream subject, its message the envelope with the event's `data`. Explained, with a
 * subscriber, in docs/events.md.
 */
export function buildAsyncApiDocument(options: AsyncApiOptions): Json {
  const channels: Record<string, Json> = {};
  const operations: Record<string, Json> = {};
  const messages: Record<string, Json> = {};
  const schemas: Record<string, Json> = {
    EventEnvelope: jsonSchema(EventEnvelope, 'One domain event as published: where it belongs, when and why it happened, and its data.'),
  };
  const wire = (subject: string) => (options.prefix ? `${options.prefix}.${subject}` : subject);

  for (const [context, events] of Object.entries(PUBLISHED_EVENTS)) {
    for (const [type, contract] of Object.entries(events as Record<string, z.ZodType>)) {
      const id = `${context}.${type}`;
      const name = `${pascal(context)}${type}`;
      schemas[`${name}Data`] = jsonSchema(contract, `The data of ${type}.`);
      messages[name] = {
        name: type,
        title: `${type} (${context})`,
        summary: `A ${context} event: ${words(type)}.`,
        contentType: 'application/json',
        headers: {
          type: 'object',
          properties: {
            'Nats-Msg-Id': {
              type: 'string',
              format: 'uuid',
              description: 'The event id: JetStream drops a re-published event within its duplicate window.',
            },
          },
        },
        correlationId: { description: 'The request that caused the event.', location: '$message.payload#/metadata/correlation_id' },
        payload: {
          allOf: [
            { $ref: '#/components/schemas/EventEnvelope' },
            {
              type: 'object',
              properties: { context: { const: context }, type: { const: type }, data: { $ref: `#/components/schemas/${name}Data` } },
            },
          ],
        },
      };
      channels[id] = {
        address: wire(eventSubject(context, type)),
        title: `${context} ${type}`,
        description: `Every ${type} event of the ${context} context, in the order of its log.`,
        messages: { [type]: { $ref: `#/components/messages/${name}` } },
      };
      operations[`receive${name}`] = {
        action: 'receive',
        title: `Receive ${type}`,
        summary: `What a subscriber to \`${wire(eventSubject(context, '>'))}\` (or this subject alone) receives.`,
        channel: { $ref: `#/channels/${pointerEscape(id)}` },
        messages: [{ $ref: `#/channels/${pointerEscape(id)}/messages/${type}` }],
      };
    }
  }

  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Renopath domain events',
      version: '1.0.0',
      description: [
        'The events every Renopath context publishes on NATS JetStream, for services that follow them (auditors replaying history,',
        `other teams' services). Stream \`${options.stream}\`; subjects \`${wire('evt.<context>.<EventType>')}\`. Each message is an`,
        'EventEnvelope whose `event_id` is unique (deduplicate by it) and whose `data` is the event contract named by its channel.',
        'Events of one stream (`stream`) arrive in order of `revision`. Types not listed here (internal bookkeeping) may appear: skip them.',
        'How to subscribe, with a tested example: docs/events.md.',
      ].join(' '),
    },
    defaultContentType: 'application/json',
    servers: {
      nats: {
        host: hostOf(options.natsUrl),
        protocol: 'nats',
        description: 'The NATS server of the deployment (RENOPATH_BUS), with JetStream.',
      },
    },
    channels,
    operations,
    components: { messages, schemas },
  };
}

/** Draft-07 JSON Schema (what AsyncAPI schemas build on), without zod's `$schema` and safe-integer bounds. */
function jsonSchema(schema: z.ZodType, description: string): Json {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'any', cycles: 'ref', reused: 'inline' }) as Json;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$schema') continue;
      if ((key === 'minimum' || key === 'maximum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) continue;
      out[key] = walk(value);
    }
    return out;
  };
  return { description, ...(walk(json) as Json) };
}

function hostOf(url: string): string {
  return url
    .replace(/^nats:\/\//, '')
    .split(',')[0]!
    .replace(/\/$/, '');
}

const pascal = (s: string) => s[0]!.toUpperCase() + s.slice(1);
const words = (type: string) => type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
const pointerEscape = (id: string) => id.replace(/~/g, '~0').replace(/\//g, '~1');

/** What the document says of the deployment's bus, from the platform's configuration (RENOPATH_BUS, _NATS_STREAM, _NATS_PREFIX). */
export function eventsOf(platform: Pick<PlatformConfig, 'bus' | 'nats'>): AsyncApiOptions {
  return {
    // Embedded mode has no NATS server: the document names where a distributed deployment's would be.
    natsUrl: platform.bus.startsWith('nats://') ? platform.bus : 'nats://localhost:4222',
    stream: platform.nats.stream,
    prefix: platform.nats.prefix || null,
  };
}
