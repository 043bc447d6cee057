import { createInterface } from 'node:readline';
import password from '@inquirer/password';

/**
 * ADMIN_PASSWORD when set; otherwise asked for twice on a terminal without echo, or read as the
 * first line of stdin when it is piped.
 */
export async function readNewPassword(env: NodeJS.ProcessEnv): Promise<string> {
  const fromEnv = env.ADMIN_PASSWORD;
  if (fromEnv) return fromEnv;
  if (!process.stdin.isTTY) return readLine();
  // No mask option: nothing of the password reaches the screen, not even its length.
  const first = await password({ message: 'Password:' });
  const second = await password({ message: 'Repeat password:' });
  if (first !== second) throw new Error('the passwords differ');
  return first;
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
