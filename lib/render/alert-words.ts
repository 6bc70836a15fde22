// Which users' alert words a message's text holds (upstream's AlertWordNotificationProcessor over
// get_alert_word_automaton): the text without its fenced code blocks, lowercased; a word matches
// case-insensitively wherever it occurs with an allowed character (or the text's edge) on each side.
import { stashCodeBlocks } from './blocks';

/**
 * The characters allowed right before a match. Upstream checks the index before the word with
 * `index <= 0`, so a word that starts at the second character matches whatever the first is.
 */
const BEFORE = new Set([' ', '\n', '(', '"', '.', ',', "'", ';', '[', '*', '`', '>']);
/** The characters allowed right after a match; upstream's set holds `",` (two characters) where `"` was meant, so `"` does not count. */
const AFTER = new Set([' ', '\n', ')', '?', ':', '.', ',', "'", ';', ']', '!', '*', '`']);

const matchesAt = (text: string, start: number, length: number): boolean => {
  const before = start - 1;
  const end = start + length;
  return (before <= 0 || BEFORE.has(text[before])) && (end >= text.length || AFTER.has(text[end]));
};

/** Whether `word` (lowercased) occurs in the prepared text at a valid position (overlapping occurrences included). */
const occursIn = (text: string, word: string): boolean => {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) if (matchesAt(text, at, word.length)) return true;
  return false;
};

/** The users (of `wordsByUser`) with an alert word in `content`. */
export const usersAlertedBy = (content: string, wordsByUser: ReadonlyMap<number, readonly string[]>): Set<number> => {
  const alerted = new Set<number>();
  if (wordsByUser.size === 0) return alerted;
  const text = stashCodeBlocks(content.split('\n')).join('\n').toLowerCase();
  for (const [userId, words] of wordsByUser) {
    if (words.some((word) => word !== '' && occursIn(text, word.toLowerCase()))) alerted.add(userId);
  }
  return alerted;
};
