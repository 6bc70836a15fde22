// One injectable clock, so tests can move time (queue expiry, presence windows) without sleeping.
let offsetMs = 0;
let frozenAtMs: number | undefined;

/** Milliseconds since the epoch, as the service sees them. */
export const nowMs = (): number => (frozenAtMs ?? Date.now()) + offsetMs;
/** The largest UNIX timestamp upstream can store or convert (the end of year 9999, UTC). */
export const MAX_TIMESTAMP = 253402300799;

/** Whole seconds since the epoch. */
export const nowSeconds = (): number => Math.floor(nowMs() / 1000);

/** Test-only: shift the service clock forward (or back with a negative value). */
export const advanceClock = (ms: number): void => {
  offsetMs += ms;
};
/** Test-only: stop the service clock at `ms` since the epoch (advanceClock still moves it). */
export const freezeClock = (ms: number): void => {
  frozenAtMs = ms;
};
export const resetClock = (): void => {
  offsetMs = 0;
  frozenAtMs = undefined;
};
