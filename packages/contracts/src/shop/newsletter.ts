import { Type, type Static } from 'typebox';
import { DataEnvelope } from '../common.js';
import { Email, Id } from './shared.js';

export const SubscribeBodySchema = Type.Object(
  {
    email: Email(),
    first_name: Type.Optional(Type.String({ maxLength: 100 })),
    last_name: Type.Optional(Type.String({ maxLength: 100 })),
    preferences: Type.Optional(
      Type.Object(
        {
          categories: Type.Optional(
            Type.Array(Id(), { maxItems: 100, description: 'Existing category ids' }),
          ),
          frequency: Type.Optional(
            Type.Union([Type.Literal('weekly'), Type.Literal('monthly')], { default: 'weekly' }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type SubscribeBody = Static<typeof SubscribeBodySchema>;

export const SubscribeResponseSchema = DataEnvelope(
  Type.Object({ subscriber_id: Id() }, { additionalProperties: false }),
  true,
);

export const UnsubscribeBodySchema = Type.Object(
  { email: Email() },
  { additionalProperties: false },
);
export type UnsubscribeBody = Static<typeof UnsubscribeBodySchema>;
