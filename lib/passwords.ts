// Password hashing: scrypt from node:crypto, salted per password, with its cost parameters stored
// in the hash (`scrypt$<N>$<r>$<p>$<salt>$<hash>`, base64) so a stored hash is verified with the
// parameters it was made with. Nothing here logs or returns a password.
import { createHash, createHmac, randomBytes, randomInt, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { config } from './config';

type CostParams = { N: number; r: number; p: number };

// The cost of every password a person sets is configuration (config.passwordCost): OWASP's
// recommendation for scrypt (N = 2^17, r = 8, p = 1) unless the environment says otherwise, as the
// tests do to keep their logins fast. A stored hash of any other cost is replaced on its next
// successful login (needsRehash). Measured, 2^17 costs about 0.64 s of one core per hash
// (docs/features.md, "Password hashes").

/**
 * The development data set's cost: its passwords are public by construction (devPassword), so a
 * cheap hash costs nothing in safety and keeps seeding every test file fast (9 ms a hash instead
 * of 640). The cost is recorded in the hash, so the first login upgrades it to the configured cost.
 */
export const DEV_PASSWORD_COST: CostParams = { N: 2 ** 10, r: 8, p: 1 };

const KEY_LENGTH = 32;

const scrypt = (password: string, salt: Buffer, cost: CostParams): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    // scrypt needs 128 · N · r bytes; Node's default limit (32 MiB) is below OWASP's cost, so allow twice that.
    const options: ScryptOptions = { ...cost, maxmem: 2 * 128 * cost.N * cost.r };
    scryptCallback(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });

/** A new salted hash of a password. */
export const hashPassword = async (password: string, cost: CostParams = config.passwordCost()): Promise<string> => {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
};

// Verified when the account has no password (or does not exist), so that such a login costs the
// same time as a wrong password and its answer's timing says nothing about the account.
let dummyHash: Promise<string> | undefined;

type StoredHash = { cost: CostParams; salt: Buffer; key: Buffer };

const parseHash = (stored: string): StoredHash | undefined => {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return undefined;
  return { cost: { N: Number(n), r: Number(r), p: Number(p) }, salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') };
};

/** Whether `password` matches a stored hash; with no hash, false after the same amount of work. */
export const verifyPassword = async (password: string, stored: string | undefined): Promise<boolean> => {
  const target = parseHash(stored ?? (await (dummyHash ??= hashPassword(randomBytes(12).toString('base64')))));
  if (!target) return false;
  const actual = await scrypt(password, target.salt, target.cost);
  return stored !== undefined && actual.length === target.key.length && timingSafeEqual(actual, target.key);
};

/** Whether a stored hash was made with another cost than the configured one, so a login should hash its password again. */
export const needsRehash = (stored: string): boolean => {
  const cost = parseHash(stored)?.cost;
  const configured = config.passwordCost();
  return cost === undefined || cost.N !== configured.N || cost.r !== configured.r || cost.p !== configured.p;
};

/**
 * The development data set's password of an account (the documented rule, docs/features.md, "Passwords of the development data set"):
 * the first 20 characters of base64url(HMAC-SHA256(DEV_PASSWORD_SECRET, lowercased email)).
 */
export const devPassword = (email: string): string =>
  createHmac('sha256', config.devPasswordSecret()).update(email.toLowerCase()).digest('base64url').slice(0, 20);

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new API key: 32 random alphanumeric characters, as upstream's generate_api_key. */
export const generateApiKey = (): string => Array.from({ length: 32 }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('');

/** A fingerprint of the stored password hash: a link issued before a password change no longer matches it. */
export const fingerprintOf = (hash: string | undefined): string => (hash ? createHash('sha256').update(hash).digest('hex') : '');
