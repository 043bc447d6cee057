#!/usr/bin/env node
// Entry point of the operator commands (see commands.ts).
import { exitOnStartupFailure } from '@dogshop/service-kit';
import { runCli } from './commands.js';

const io = {
  out: (line: string) => console.log(line),
  err: (line: string) => console.error(line),
};

runCli(process.argv.slice(2), process.env, io).then(
  (code) => process.exit(code),
  (error: unknown) => exitOnStartupFailure('shop', error),
);
