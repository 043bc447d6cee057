// Reads the commands the deployment files define, so that the tests run exactly those.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { INFRA_DIR, REPO_ROOT } from './paths.js';

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
  deploy?: { replicas?: number };
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

export const WORKFLOW_DIR = path.join(REPO_ROOT, '.github', 'workflows');

/** One image a deployment file pulls (rather than builds), as written there. */
export interface PulledImage {
  /** The file, relative to the repository root. */
  file: string;
  /** Where in the file: the compose service, the workflow job and service, the Dockerfile line. */
  where: string;
  reference: string;
}

/**
 * Every image the deployment files pull: compose services without a `build:`, the base images of
 * the Dockerfiles (`FROM`, with `${ARG}` resolved to the ARG's default), and the service
 * containers of every workflow.
 */
export function pulledImages(): PulledImage[] {
  const images: PulledImage[] = [];
  const relative = (file: string) => path.relative(REPO_ROOT, file);

  for (const [name, service] of Object.entries(readCompose().services)) {
    if (service.build === undefined && service.image !== undefined) {
      images.push({ file: relative(COMPOSE_FILE), where: name, reference: service.image });
    }
  }

  for (const service of ['shop', 'handler-directory'] as const) {
    const instructions = dockerfileInstructions(service);
    const args = new Map<string, string>();
    for (const instruction of instructions) {
      const arg = /^ARG\s+([A-Za-z_][A-Za-z0-9_]*)=(\S+)$/.exec(instruction);
      if (arg) args.set(arg[1]!, arg[2]!);
    }
    const stages = new Set<string>();
    for (const instruction of instructions) {
      const from = /^FROM\s+(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction);
      if (!from) continue;
      const image = from[1]!.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
        const value = args.get(name);
        if (value === undefined)
          throw new Error(`${service}.Dockerfile: ARG ${name} has no default`);
        return value;
      });
      // `FROM <earlier stage>` pulls nothing.
      if (!stages.has(image)) {
        images.push({
          file: relative(dockerfilePath(service)),
          where: instruction,
          reference: image,
        });
      }
      if (from[2]) stages.add(from[2]);
    }
  }

  for (const file of readdirSync(WORKFLOW_DIR).filter((f) => /\.ya?ml$/.test(f))) {
    const workflow = parse(readFileSync(path.join(WORKFLOW_DIR, file), 'utf8')) as {
      jobs: Record<string, { services?: Record<string, { image: string }> }>;
    };
    for (const [job, { services }] of Object.entries(workflow.jobs)) {
      for (const [name, service] of Object.entries(services ?? {})) {
        images.push({
          file: relative(path.join(WORKFLOW_DIR, file)),
          where: `${job}.services.${name}`,
          reference: service.image,
        });
      }
    }
  }
  return images;
}

/** `name:tag@sha256:<64 hex>` → its parts; undefined when the reference is not pinned that way. */
export function parsePinnedImage(
  reference: string,
): { name: string; tag: string; digest: string } | undefined {
  const match = /^([a-z0-9][a-z0-9._/-]*):([\w][\w.-]*)@(sha256:[0-9a-f]{64})$/.exec(reference);
  return match ? { name: match[1]!, tag: match[2]!, digest: match[3]! } : undefined;
}
