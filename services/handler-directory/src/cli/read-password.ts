import { createInterface } from 'node:readline';

/**
 * ADMIN_PASSWORD when set; otherwise asked for twice on a terminal without echo, or read as the
 * first line of stdin when it is piped.
 */
export async function readNewPassword(env: NodeJS.ProcessEnv): Promise<string> {
  const fromEnv = env.ADMIN_PASSWORD;
  if (fromEnv) return fromEnv;
  if (!process.stdin.isTTY) return readLine();
  const first = await ask('Password: ');
  const second = await ask('Repeat password: ');
  if (first !== second) throw new Error('the passwords differ');
  return first;
}

function ask(prompt: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    // Echo nothing of what is typed (the prompt itself is written before muting).
    const output = rl as unknown as { _writeToOutput: (text: string) => void };
    process.stdout.write(prompt);
    output._writeToOutput = () => {};
    rl.question('', (answer) => {
      rl.close();
      process.stdout.write('\n');
      resolve(answer);
    });
  });
}

function readLine(): Promise<string> {
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: process.stdin });
    let done = false;
    rl.once('line', (line) => {
      done = true;
      rl.close();
      resolve(line);
    });
    rl.once('close', () => {
      if (!done) reject(new Error('no password: set ADMIN_PASSWORD or pipe it on stdin'));
    });
  });
}
