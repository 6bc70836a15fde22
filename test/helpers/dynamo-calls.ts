// Watching the service's own DynamoDB calls: every command its document client sends goes through
// `around` (which must send it with `send`), and still reaches DynamoDB Local, until `restore`.
// For tests that count or order calls; the answers are DynamoDB Local's own.
import { documentClient } from '../../lib/store/client';

type Send = ReturnType<typeof documentClient>['send'];
export type Command = Parameters<Send>[0];

/** Routes the client's commands through `around` until the returned function is called. */
export const aroundDynamoCalls = (
  around: (command: Command, send: (command: Command) => Promise<unknown>) => Promise<unknown>,
): (() => void) => {
  const client = documentClient();
  const original = client.send.bind(client) as (command: Command) => Promise<unknown>;
  // send's callback overload returns void; every caller here uses the promise one.
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  const spy = jest.spyOn(client, 'send').mockImplementation(((command: Command) => around(command, original)) as Send);
  return () => spy.mockRestore();
};

/** Calls `see` with each command before it is sent, until the returned function is called. */
export const watchDynamoCalls = (see: (command: Command) => void): (() => void) =>
  aroundDynamoCalls((command, send) => {
    see(command);
    return send(command);
  });
