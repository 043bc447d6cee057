import { describe, expect, it } from '@jest/globals';
import { Type } from 'typebox';
import { ConfigError, loadConfig } from '../src/config.js';

const Schema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  SEED_DEMO: Type.Boolean({ default: true }),
  JWT_SECRET: Type.Optional(Type.String({ minLength: 32 })),
});

describe('loadConfig', () => {
  it('converts strings to the declared types and applies defaults', () => {
    expect(loadConfig(Schema, { PORT: '8080', SEED_DEMO: 'false' })).toEqual({
      PORT: 8080,
      SEED_DEMO: false,
    });
    expect(loadConfig(Schema, {})).toEqual({ PORT: 3000, SEED_DEMO: true });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig(Schema, { PORT: '' })).toEqual({ PORT: 3000, SEED_DEMO: true });
  });

  it('names the bad variable and the value it got', () => {
    expect(() => loadConfig(Schema, { PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig(Schema, { PORT: 'eighty' })).toThrow(/^PORT: .*\(got "eighty"\)$/);
    expect(() => loadConfig(Schema, { PORT: '70000' })).toThrow(/^PORT: /);
    expect(() => loadConfig(Schema, { JWT_SECRET: 'short' })).toThrow(/^JWT_SECRET: /);
  });
});
