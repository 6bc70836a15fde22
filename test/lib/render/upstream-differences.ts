// The cases of upstream's Markdown test data (upstream-cases.test.ts) that this renderer does not
// yet match byte for byte, each with why. Take a case off when it starts to match (the test says so).
export const KNOWN_DIFFERENCES: Record<string, string> = {
  emoji_sequence_one: "the emoji name table (lib/emoji, from zulip-terminal's copy) has no ZWJ sequences such as woman_shrugging",
  emoji_sequence_two: "the emoji name table (lib/emoji, from zulip-terminal's copy) has no ZWJ sequences such as eye_in_speech_bubble",
};
