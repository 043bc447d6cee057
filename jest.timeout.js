// Each package's limit per test and hook, from its jest.config.js (`globals.testTimeout`): Jest's
// own `testTimeout` is one value for the whole run, so in the root run of every package
// (jest.config.js) the services' 30 s and the infra tests' 120 s could not both hold.
import { jest } from '@jest/globals';

if (typeof globalThis.testTimeout === 'number') jest.setTimeout(globalThis.testTimeout);
