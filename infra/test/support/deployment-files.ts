// Reads the commands the deployment files define, so that the tests run exactly those.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { INFRA_DIR } from './paths.js';

export type Service = 'shop' | 'handler-directory';

export const dockerfilePath = (service: Service) =>
  path.join(INFRA_DIR, 'docker', `${service}.Dockerfile`);

/** The Dockerfile's instructions, one per entry, with line continuations joined. */
export function dockerfileInstructions(service: Service): string[] {
  return readFileSync(dockerfilePath(service), 'utf8')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** The JSON-array command of the runtime stage's CMD, and of its HEALTHCHECK. */
export function dockerfileCommands(service: Service): { cmd: string[]; healthcheck: string[] } {
  const instructions = dockerfileInstructions(service);
  const cmd = instructions.filter((i) => /^CMD\s/.test(i)).at(-1);
  const healthcheck = instructions.find((i) => /^HEALTHCHECK\s/.test(i));
  if (!cmd || !healthcheck) throw new Error(`${service}.Dockerfile needs CMD and HEALTHCHECK`);
  return {
    cmd: JSON.parse(cmd.replace(/^CMD\s+/, '')) as string[],
    healthcheck: JSON.parse(healthcheck.replace(/^HEALTHCHECK\s.*?\bCMD\s+/, '')) as string[],
  };
}

export interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  ports?: string[];
  healthcheck?: { test: string[] };
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
}

export const COMPOSE_FILE = path.join(INFRA_DIR, 'compose.yaml');

export function readCompose(): ComposeFile {
  return parse(readFileSync(COMPOSE_FILE, 'utf8'), { merge: true }) as ComposeFile;
}

/** A Docker command (["node", …]) run with this Node.js binary. */
export function withThisNode(command: string[]): { command: string; args: string[] } {
  const [program, ...args] = command;
  if (program !== 'node') throw new Error(`expected a node command, got ${command.join(' ')}`);
  return { command: process.execPath, args };
}
