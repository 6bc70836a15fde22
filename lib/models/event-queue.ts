// Rules of an event queue that both the register parameters and the engine need.

/** Default, floor and ceiling of a queue's idle timeout (seconds), and the `mobile` value. */
export const QUEUE_TIMEOUT = { default: 600, min: 60, max: 7 * 86400, mobile: 12 * 3600 } as const;
