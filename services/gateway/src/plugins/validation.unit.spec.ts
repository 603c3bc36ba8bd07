import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { freezeImmutable } from '@renopath/platform/internal/reply.ts';
import { serializerCompiler } from './validation.ts';

const Reply = z.object({ id: z.string(), name: z.string().nullable(), tags: z.array(z.string()), nested: z.object({ n: z.number() }) });
const compile = () => serializerCompiler({ schema: Reply, method: 'GET', url: '/x', httpStatus: '200' }) as (data: unknown) => string;

describe('reply serializer', () => {
  it('writes only the documented fields, frozen (shared) replies and others alike', () => {
    const serialize = compile();
    const value = { id: 'a', name: null, tags: ['x'], nested: { n: 1.5 }, secret: 'not documented' };
    const expected = '{"id":"a","name":null,"tags":["x"],"nested":{"n":1.5}}';
    expect(serialize(value)).toBe(expected);
    const frozen = freezeImmutable({ ...value, tags: [...value.tags], nested: { ...value.nested } });
    expect(serialize(frozen)).toBe(expected);
    expect(serialize(frozen)).toBe(expected);
  });

  it('writes a reply that is not frozen afresh each time, so a changed object gives its new bytes', () => {
    const serialize = compile();
    const value = { id: 'a', name: 'first', tags: [] as string[], nested: { n: 1 } };
    expect(serialize(value)).toContain('"first"');
    value.name = 'second';
    value.tags.push('t');
    expect(serialize(value)).toBe('{"id":"a","name":"second","tags":["t"],"nested":{"n":1}}');
    // Shallowly frozen is not enough: only what freezeImmutable froze throughout is kept.
    const shallow = Object.freeze({ id: 'b', name: null, tags: ['u'], nested: { n: 2 } });
    expect(serialize(shallow)).toContain('"u"');
    shallow.tags.push('v');
    expect(serialize(shallow)).toContain('["u","v"]');
  });

  it('freezes what it registers: a shared reply cannot be changed under the bytes kept for it', () => {
    const frozen = freezeImmutable({ id: 'c', name: null, tags: ['x'], nested: { n: 3 } });
    expect(() => (frozen.tags as string[]).push('y')).toThrow(TypeError);
    expect(() => ((frozen.nested as { n: number }).n = 4)).toThrow(TypeError);
  });
});
