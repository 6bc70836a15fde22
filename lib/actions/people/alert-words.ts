// A user's alert words (upstream's zerver/views/alert_words.py, zerver/lib/alert_words.py and
// zerver/actions/alert_words.py): words or phrases that mark a message for them (has_alert_word,
// set when it is delivered: lib/render/alert-words.ts), kept in the order added, distinct
// regardless of case.
import { BadRequestError } from '../../errors';
import { sendEvent } from '../../events/send';
import type { User } from '../../models/user';
import * as userDataStore from '../../store/user-data';
import { LostRaceError, retryLostRaces } from '../retry';

/** Upstream's StringConstraints(max_length=100) on each added word. */
const MAX_ALERT_WORD_LENGTH = 100;
/**
 * How many alert words one user keeps: not an upstream limit (it has none), but what one item
 * holds (words of up to 100 characters, up to 400 bytes each, in DynamoDB's 400 KB item).
 */
const MAX_ALERT_WORDS = 500;

/** GET /users/me/alert_words and register's `alert_words`. */
export const listAlertWords = (user: User): Promise<string[]> => userDataStore.getAlertWords(user.id);

/** Upstream's check of the added words: each at most 100 characters (counted as Python counts them). */
const checkAlertWordLengths = (words: string[]): void => {
  const long = words.findIndex((w) => [...w].length > MAX_ALERT_WORD_LENGTH);
  if (long >= 0) throw new BadRequestError(`alert_words[${long}] is too long (limit: ${MAX_ALERT_WORD_LENGTH} characters)`);
};

/** Replaces the words with what `change` makes of them (retried on a concurrent change), then sends `alert_words` to the user's queues. */
const changeAlertWords = async (user: User, change: (words: string[]) => string[]): Promise<string[]> => {
  const words = await retryLostRaces(async () => {
    const previous = await userDataStore.getAlertWords(user.id);
    const next = change(previous);
    if (next.length > MAX_ALERT_WORDS) throw new BadRequestError(`Too many alert words (limit: ${MAX_ALERT_WORDS})`);
    if (next.length === previous.length && next.every((w, i) => w === previous[i])) return previous;
    if (!(await userDataStore.setAlertWords(user.realmId, user.id, next, previous))) throw new LostRaceError();
    return next;
  });
  await sendEvent(user.realmId, { type: 'alert_words', alert_words: words }, { users: [user.id] });
  return words;
};

/**
 * POST /users/me/alert_words (upstream's clean_alert_words, then add_user_alert_words): each word
 * stripped, empty ones dropped, those already there in any case skipped, the first spelling of a
 * new one kept. Writes the words; sends `alert_words` with the whole list to the user's queues.
 */
export const checkAddAlertWords = async (user: User, added: string[]): Promise<string[]> => {
  checkAlertWordLengths(added);
  const cleaned = added.map((w) => w.trim()).filter((w) => w !== '');
  return changeAlertWords(user, (words) => {
    const known = new Set(words.map((w) => w.toLowerCase()));
    const fresh = new Map<string, string>();
    for (const word of cleaned) if (!known.has(word.toLowerCase()) && !fresh.has(word.toLowerCase())) fresh.set(word.toLowerCase(), word);
    return [...words, ...fresh.values()];
  });
};

/**
 * DELETE /users/me/alert_words (upstream's remove_user_alert_words): removes each word given,
 * regardless of case; words that are not there are ignored. Writes the words; sends
 * `alert_words` with the whole list to the user's queues.
 */
export const doRemoveAlertWords = async (user: User, removed: string[]): Promise<string[]> => {
  const gone = new Set(removed.map((w) => w.toLowerCase()));
  return changeAlertWords(user, (words) => words.filter((w) => !gone.has(w.toLowerCase())));
};
