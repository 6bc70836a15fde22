// The cases of upstream's Markdown test data (upstream-cases.test.ts) that this renderer does not
// yet match byte for byte, each with why. Take a case off when it starts to match (the test says so).
export const KNOWN_DIFFERENCES: Record<string, string> = {};
