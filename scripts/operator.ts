// Operator commands, run as `npm run <command> -- --realm <subdomain> --email <email> ...` against
// the DynamoDB that DYNAMODB_ENDPOINT and TABLE_PREFIX name (as `npm run seed`): the local one of
// `npm start`, or a deployed stage's with its credentials. Each prints what it did, or refuses with
// a message that says what to do (OperatorError, exit status 1).
import {
  findRealm,
  findUser,
  operatorChangeRole,
  operatorDeactivateUser,
  operatorListRealms,
  operatorRegisterPushServer,
  operatorReactivateUser,
  operatorSetCanCreateUsers,
  operatorSetRealmDeactivated,
  OperatorError,
  ROLE_NAMES,
} from '../lib/actions/organization/operator';

type Args = Record<string, string | true>;

type Command = {
  usage: string;
  /** Options that need a value, and flags that take none. */
  options: string[];
  flags?: string[];
  run: (args: Args) => Promise<string[]>;
};

const need = (args: Args, name: string, usage: string): string => {
  const value = args[name];
  if (typeof value !== 'string' || value.trim() === '') throw new OperatorError(`Missing --${name}. Usage: ${usage}`);
  return value;
};

const userCommand = (
  usage: string,
  act: (realmId: string, email: string, args: Args) => Promise<string>,
  extra: string[] = [],
  flags: string[] = [],
): Command => ({
  usage,
  options: ['realm', 'email', ...extra],
  flags,
  run: async (args) => [await act(need(args, 'realm', usage), need(args, 'email', usage), args)],
});

export const COMMANDS: Record<string, Command> = {
  'user-role': userCommand(
    `npm run user-role -- --realm <subdomain> --email <email> --role <${Object.keys(ROLE_NAMES).join('|')}>`,
    async (realmId, email, args) => {
      const realm = await findRealm(realmId);
      const role = need(args, 'role', COMMANDS['user-role'].usage);
      return operatorChangeRole(realm, await findUser(realm, email), role);
    },
    ['role'],
  ),
  'user-can-create-users': userCommand(
    'npm run user-can-create-users -- --realm <subdomain> --email <email> [--revoke]',
    async (realmId, email, args) => {
      const realm = await findRealm(realmId);
      return operatorSetCanCreateUsers(realm, await findUser(realm, email), args.revoke !== true);
    },
    [],
    ['revoke'],
  ),
  'deactivate-user': userCommand('npm run deactivate-user -- --realm <subdomain> --email <email>', async (realmId, email) => {
    const realm = await findRealm(realmId);
    return operatorDeactivateUser(realm, await findUser(realm, email));
  }),
  'reactivate-user': userCommand('npm run reactivate-user -- --realm <subdomain> --email <email>', async (realmId, email) => {
    const realm = await findRealm(realmId);
    return operatorReactivateUser(realm, await findUser(realm, email));
  }),
  'deactivate-realm': {
    usage: 'npm run deactivate-realm -- --realm <subdomain>',
    options: ['realm'],
    run: async (args) => [
      await operatorSetRealmDeactivated(await findRealm(need(args, 'realm', COMMANDS['deactivate-realm'].usage)), true),
    ],
  },
  'reactivate-realm': {
    usage: 'npm run reactivate-realm -- --realm <subdomain>',
    options: ['realm'],
    run: async (args) => [
      await operatorSetRealmDeactivated(await findRealm(need(args, 'realm', COMMANDS['reactivate-realm'].usage)), false),
    ],
  },
  'list-realms': {
    usage: 'npm run list-realms',
    options: [],
    run: async () => ['id\tsubdomain\tstate\turl\tname', ...(await operatorListRealms())],
  },
  'register-push-server': {
    usage: 'npm run register-push-server',
    options: [],
    run: operatorRegisterPushServer,
  },
};

/** Reads `--name value` options and `--flag` flags; anything else is refused with the usage. */
const parseArgs = (command: Command, argv: string[]): Args => {
  const args: Args = {};
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].startsWith('--') ? argv[i].slice(2) : undefined;
    if (name !== undefined && command.flags?.includes(name)) {
      args[name] = true;
    } else if (name !== undefined && command.options.includes(name) && i + 1 < argv.length) {
      args[name] = argv[++i];
    } else {
      throw new OperatorError(`Unexpected argument "${argv[i]}". Usage: ${command.usage}`);
    }
  }
  return args;
};

/** Runs one operator command with its arguments; returns the lines to print. */
export const runOperatorCommand = async (name: string, argv: string[]): Promise<string[]> => {
  const command = COMMANDS[name];
  if (!command) throw new OperatorError(`Unknown command "${name}": one of ${Object.keys(COMMANDS).join(', ')}.`);
  return command.run(parseArgs(command, argv));
};
