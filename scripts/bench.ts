// `npm run bench`: starts its own DynamoDB Local, seeds the development data set, and prints the
// figures of every benchmark section. Nothing else needs to be running.
import { closeClients } from '../lib/store/client';
import { benchEvents } from './bench-events';
import { createTables, startDynamoLocal } from './local-dynamo';
import { seedDevRealm } from './seed';

type Section = { name: string; run: () => Promise<void> };

const optionalSection = async (name: string, modulePath: string, exportName: string): Promise<Section | undefined> => {
  try {
    const mod = (await import(modulePath)) as Record<string, () => Promise<void>>;
    return mod[exportName] ? { name, run: mod[exportName] } : undefined;
  } catch (error) {
    if ((error as { code?: string }).code === 'MODULE_NOT_FOUND' || (error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') return undefined;
    throw error;
  }
};

const main = async (): Promise<void> => {
  process.env.REQUEST_LOG = 'off';
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
  const only = process.argv.slice(2);
  const dynamo = await startDynamoLocal();
  try {
    process.env.TABLE_PREFIX = 'bench-';
    await createTables();
    await seedDevRealm();
    console.log(`# Benchmark (DynamoDB Local at ${dynamo.endpoint}, Node ${process.version})`);
    const sections: Section[] = [{ name: 'events', run: benchEvents }];
    for (const [name, path, fn] of [
      ['presence', './bench-presence', 'benchPresence'],
      ['register', './bench-register', 'benchRegister'],
    ] as const) {
      const section = await optionalSection(name, path, fn);
      if (section) sections.push(section);
    }
    for (const section of sections) {
      if (only.length > 0 && !only.includes(section.name)) continue;
      await section.run();
    }
  } finally {
    closeClients();
    await dynamo.stop();
  }
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
