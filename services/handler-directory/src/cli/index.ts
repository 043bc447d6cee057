#!/usr/bin/env node
// Entry point of the operator commands (see commands.ts).
import { exitOnStartupFailure } from '@dogshop/service-kit';
import { runCli } from './commands.js';
import { readNewPassword } from './read-password.js';

const io = {
  out: (line: string) => console.log(line),
  err: (line: string) => console.error(line),
  readPassword: () => readNewPassword(process.env),
};

runCli(process.argv.slice(2), process.env, io).then(
  (code) => process.exit(code),
  (error: unknown) => exitOnStartupFailure('handler-directory', error),
);
