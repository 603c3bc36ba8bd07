import { EstateEvents, type EstateEvent } from '@renopath/contracts';

/**
 * A stored estate event as the deciders and views read it, parsed with its contract schema: the one
 * place where an upcaster of older event shapes goes. An event its schema refuses (written by an
 * older version under looser rules) is read as stored rather than stopping every reader of the stream.
 */
export function parseEstateEvent(recorded: { type: string; data: Record<string, unknown> }): EstateEvent {
  const schema = (EstateEvents as Record<string, (typeof EstateEvents)[keyof typeof EstateEvents] | undefined>)[recorded.type];
  const parsed = schema?.safeParse(recorded.data);
  return { type: recorded.type, data: parsed?.success ? parsed.data : recorded.data } as EstateEvent;
}
