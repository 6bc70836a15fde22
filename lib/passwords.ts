// Password hashing: scrypt from node:crypto, salted per password, with its cost parameters stored
// in the hash (`scrypt$<N>$<r>$<p>$<salt>$<hash>`, base64) so a stored hash is verified with the
// parameters it was made with. Nothing here logs or returns a password.
import { createHmac, randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { config } from './config';

type CostParams = { N: number; r: number; p: number };

/** The cost of every password a person sets (about 50–100 ms of CPU and 32 MiB per hash). */
const PASSWORD_COST: CostParams = { N: 2 ** 15, r: 8, p: 1 };
/**
 * The development data set's cost: its passwords are public by construction (devPassword), so a
 * cheap hash costs nothing in safety and keeps seeding every test file fast.
 */
export const DEV_PASSWORD_COST: CostParams = { N: 2 ** 10, r: 8, p: 1 };

const KEY_LENGTH = 32;

const scrypt = (password: string, salt: Buffer, cost: CostParams): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
    scryptCallback(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });

/** A new salted hash of a password. */
export const hashPassword = async (password: string, cost: CostParams = PASSWORD_COST): Promise<string> => {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
};

// Verified when the account has no password (or does not exist), so that such a login costs the
// same time as a wrong password and its answer's timing says nothing about the account.
let dummyHash: Promise<string> | undefined;

/** Whether `password` matches a stored hash; with no hash, false after the same amount of work. */
export const verifyPassword = async (password: string, stored: string | undefined): Promise<boolean> => {
  const target = stored ?? (await (dummyHash ??= hashPassword(randomBytes(12).toString('base64'))));
  const [scheme, n, r, p, salt, key] = target.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return stored !== undefined && actual.length === expected.length && timingSafeEqual(actual, expected);
};

/**
 * The development data set's password of an account (the documented rule, README "Passwords"):
 * the first 20 characters of base64url(HMAC-SHA256(DEV_PASSWORD_SECRET, lowercased email)).
 */
export const devPassword = (email: string): string =>
  createHmac('sha256', config.devPasswordSecret()).update(email.toLowerCase()).digest('base64url').slice(0, 20);
