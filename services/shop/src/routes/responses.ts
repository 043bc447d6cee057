import { ShopErrorSchema } from '@dogshop/contracts/common';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request',
  401: 'Not authorized',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Body too large',
  415: 'Unsupported content type',
  422: 'Unprocessable',
  429: 'Too many requests',
};

/** Error responses of an operation, all in the shop's error envelope. */
export function errorResponses(...codes: number[]) {
  return Object.fromEntries(
    codes.map((code) => [code, { ...ShopErrorSchema, description: DESCRIPTIONS[code] ?? 'Error' }]),
  );
}

export const bearerSecurity = [{ BearerAuth: [] }];
