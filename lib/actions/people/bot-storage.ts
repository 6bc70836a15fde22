import { BadRequestError } from '../../errors';
import type { User } from '../../models/user';
import * as botStorageStore from '../../store/bot-storage';

/** Upstream's USER_STATE_SIZE_LIMIT: characters of keys plus values, per bot. */
export const BOT_STORAGE_SIZE_LIMIT = 10_000_000;
/**
 * One entry (key plus value) may hold at most this many characters: an entry is one DynamoDB
 * item, limited to 400 KB (4 bytes per character at worst). Upstream has no per-entry limit.
 */
export const BOT_STORAGE_ENTRY_LIMIT = 100_000;
const MAX_WRITES_PER_TRANSACTION = 99;
const MAX_ATTEMPTS = 10;

const charLength = (s: string): number => [...s].length;
const entrySize = (key: string, value: string | undefined): number => (value === undefined ? 0 : charLength(key) + charLength(value));
const overLimit = (size: number, limit: number) =>
  new BadRequestError(`Request exceeds storage limit by ${size - limit} characters. The limit is ${limit} characters.`);
const keyMissing = () => new BadRequestError('Key does not exist.');

/** Applies changes in transactions of at most 99 entries, re-reading and retrying a chunk that lost a race. */
const applyChanges = async (
  user: User,
  changes: Map<string, string | null>,
  check: (oldSize: number, newSize: number, old: Map<string, string>) => void,
) => {
  const keys = [...changes.keys()];
  for (let i = 0; i < keys.length; i += MAX_WRITES_PER_TRANSACTION) {
    const chunk = keys.slice(i, i + MAX_WRITES_PER_TRANSACTION);
    for (let attempt = 1; ; attempt += 1) {
      const [oldSize, old] = await Promise.all([botStorageStore.getSize(user.id), botStorageStore.getEntries(user.id, chunk)]);
      const newSize =
        oldSize + chunk.reduce((sum, key) => sum + entrySize(key, changes.get(key) ?? undefined) - entrySize(key, old.get(key)), 0);
      check(oldSize, newSize, old);
      const writes = chunk
        .map((key) => ({ key, value: changes.get(key)!, old: old.get(key) }))
        .filter((w) => !(w.value === null && w.old === undefined));
      if (await botStorageStore.writeEntries(user.id, writes, oldSize, newSize)) break;
      if (attempt === MAX_ATTEMPTS) throw new BadRequestError('Storage changed during the request; try again.');
    }
  }
};

/**
 * PUT /bot_storage: sets each key of `storage` in the caller's own storage. Refuses, with
 * upstream's message, a change that would take the storage past its size limit (and, here, an
 * entry too large for one item). Writes entries and the running size together; emits no event.
 */
export const checkSetBotStorage = async (user: User, storage: Record<string, string>): Promise<void> => {
  for (const [key, value] of Object.entries(storage)) {
    const size = entrySize(key, value);
    if (size > BOT_STORAGE_ENTRY_LIMIT) throw overLimit(size, BOT_STORAGE_ENTRY_LIMIT);
  }
  await applyChanges(user, new Map(Object.entries(storage)), (_oldSize, newSize) => {
    if (newSize > BOT_STORAGE_SIZE_LIMIT) throw overLimit(newSize, BOT_STORAGE_SIZE_LIMIT);
  });
};

/** GET /bot_storage: the values of `keys` (all keys when none are named) in the caller's own storage; "Key does not exist." for a missing one. */
export const getBotStorage = async (user: User, keys: string[] | undefined): Promise<Record<string, string>> => {
  if (!keys || keys.length === 0) return Object.fromEntries((await botStorageStore.listEntries(user.id)).map((e) => [e.key, e.value]));
  const found = await botStorageStore.getEntries(user.id, keys);
  if (keys.some((key) => !found.has(key))) throw keyMissing();
  return Object.fromEntries(keys.map((key) => [key, found.get(key)!]));
};

/**
 * DELETE /bot_storage: removes `keys` (all keys when none are named) from the caller's own
 * storage; if any is missing, "Key does not exist." and nothing is removed. Emits no event.
 */
export const checkRemoveBotStorage = async (user: User, keys: string[] | undefined): Promise<void> => {
  const targets = keys && keys.length > 0 ? [...new Set(keys)] : (await botStorageStore.listEntries(user.id)).map((e) => e.key);
  if (keys && keys.length > 0) {
    const found = await botStorageStore.getEntries(user.id, targets);
    if (targets.some((key) => !found.has(key))) throw keyMissing();
  }
  await applyChanges(user, new Map(targets.map((key) => [key, null])), () => undefined);
};
