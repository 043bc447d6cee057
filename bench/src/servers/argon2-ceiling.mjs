/* global process, console, performance */
// B5's ceiling: argon2id verifications per second on this machine, with the service's stored hash
// (so its parameters), keeping PARALLEL verifications in flight for SECONDS; then one at a time.
import { verify } from '@node-rs/argon2';

const hash = process.env.HASH;
const password = process.env.PASSWORD;
const seconds = Number(process.env.SECONDS ?? 10);
const parallel = Number(process.env.PARALLEL ?? 4);

async function measure(inFlight, ms) {
  let done = 0;
  const deadline = performance.now() + ms;
  const worker = async () => {
    while (performance.now() < deadline) {
      if (!(await verify(hash, password))) throw new Error('the password does not match the hash');
      done += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  return done / ((performance.now() - started) / 1000);
}

const rate = await measure(parallel, seconds * 1000);
const single = await measure(1, Math.max(1000, (seconds * 1000) / 4));
console.log(JSON.stringify({ rate, single, parallel }));
