// `npm run replay-deliveries -- --queue-url <url>`: replays the entries of the delivery dead-letter
// queue (serverless.yml DeliveryDeadLetterQueue; its URL is in the stack's resources), or with
// `--file <path>` those of `npm start`'s local dead-letter file (scripts/local-lambda.ts), each one a
// message delivery that failed every attempt (lib/actions/messages/delivery.ts doReplayDeadLetter)
// or a run of a topic move's messageMove job (lib/actions/messages/move.ts doMessageMove),
// and deletes each entry once its delivery is done. Reaches the stage's tables as `npm run seed`
// does (TABLE_PREFIX, or TABLE_MAIN and TABLE_EVENTS, and the AWS credentials of the environment).
// An entry that fails again stays in the queue, and the command ends with an error.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { doReplayDeadLetter } from '../lib/actions/messages/delivery';
import { doMessageMove, moveJobOfDeadLetter } from '../lib/actions/messages/move';
import { config } from '../lib/config';
import { closeClients } from '../lib/store/client';
import { JOBS } from '../lib/actions/jobs';
import { runJobsInProcess, settleJobs } from '../lib/store/jobs';

/** Replays one entry: a messageMove run (the move goes on to its end) or a delivery. */
const replay = async (body: string): Promise<{ messages: number }> => {
  const move = moveJobOfDeadLetter(body);
  if (!move) return doReplayDeadLetter(body);
  await doMessageMove(move);
  // Its next runs: in this process unless MESSAGE_MOVE_FUNCTION names the deployed function.
  await settleJobs();
  return { messages: move.total };
};

const argValue = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

/** Replays the entries of the local dead-letter file (`npm start`'s, scripts/local-lambda.ts); keeps those that fail again. */
const replayFile = async (file: string): Promise<{ replayed: number; failed: number }> => {
  const lines = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
    : [];
  const kept: string[] = [];
  let replayed = 0;
  for (const [i, line] of lines.entries()) {
    try {
      const { messages } = await replay(line);
      replayed += 1;
      console.log(`replayed line ${i + 1} (${messages} message${messages === 1 ? '' : 's'})`);
    } catch (error) {
      kept.push(line);
      console.error(`line ${i + 1}: ${String((error as Error).stack ?? error)}`);
    }
  }
  writeFileSync(file, kept.map((l) => `${l}\n`).join(''));
  return { replayed, failed: kept.length };
};

/** Replays the entries of the SQS queue, deleting each once replayed. */
const replayQueue = async (queueUrl: string): Promise<{ replayed: number; failed: number }> => {
  const sqs = new SQSClient({ region: config.region() });
  let replayed = 0;
  let failed = 0;
  try {
    for (;;) {
      const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 300 }));
      const entries = out.Messages ?? [];
      if (entries.length === 0) break;
      for (const entry of entries) {
        try {
          const { messages } = await replay(entry.Body ?? '');
          await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: entry.ReceiptHandle }));
          replayed += 1;
          console.log(`replayed ${entry.MessageId} (${messages} message${messages === 1 ? '' : 's'})`);
        } catch (error) {
          failed += 1;
          console.error(`${entry.MessageId}: ${String((error as Error).stack ?? error)}`);
        }
      }
    }
  } finally {
    sqs.destroy();
  }
  return { replayed, failed };
};

const main = async (): Promise<void> => {
  // Jobs started here (no job function is configured) run in this process.
  runJobsInProcess(JOBS);
  const file = argValue('--file');
  const queueUrl = argValue('--queue-url') ?? process.env.DELIVERY_DLQ_URL;
  if (!file && !queueUrl)
    throw new Error(
      'usage: npm run replay-deliveries -- --queue-url <the delivery dead-letter queue URL> | --file <a local dead-letter file, npm start: .local/dead-letters.jsonl>',
    );
  try {
    const { replayed, failed } = file ? await replayFile(file) : await replayQueue(queueUrl!);
    console.log(`${replayed} replayed, ${failed} failed`);
    if (failed > 0) process.exitCode = 1;
  } finally {
    closeClients();
  }
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
