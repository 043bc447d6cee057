// Runs on piscina's password threads (see passwords.ts): argon2's synchronous functions, so the
// hashing happens on this thread, whose priority piscina has lowered, rather than on libuv's
// shared pool.
import argon2 from '@node-rs/argon2';

export const hash = ({ password, options }) => argon2.hashSync(password, options);

export const verify = ({ passwordHash, password }) => argon2.verifySync(passwordHash, password);
