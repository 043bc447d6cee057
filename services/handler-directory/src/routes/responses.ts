import { DirectoryErrorSchema } from '@dogshop/contracts/common';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request',
  401: 'Not authenticated (no, invalid or expired token; account gone or disabled)',
  403: 'Not authorized (the role may not do this)',
  404: 'Not found',
  413: 'Body too large',
  415: 'Unsupported content type',
  429: 'Too many requests',
};

/** Error responses of an operation, all in the directory's error envelope. */
export function errorResponses(...codes: number[]) {
  return Object.fromEntries(
    codes.map((code) => [
      code,
      { ...DirectoryErrorSchema, description: DESCRIPTIONS[code] ?? 'Error' },
    ]),
  );
}

export const bearerSecurity = [{ BearerAuth: [] }];
