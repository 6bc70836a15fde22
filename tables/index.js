// The single source of truth for the DynamoDB tables: read by serverless.yml (CloudFormation
// resources) and by the local bootstrap (scripts and tests). Plain CommonJS so both can load it.
const main = require('./main.json');
const events = require('./events.json');

const TABLES = [main, events];

/** What the Lambda roles may do on the tables: items and queries; no Scan, no table administration. */
const DYNAMODB_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
];

/** Logical CloudFormation id of a table, e.g. MainTable. */
const logicalId = (table) => `${table.name[0].toUpperCase()}${table.name.slice(1)}Table`;

/** serverless.yml: `${file(./tables/index.js):resources}`: one AWS::DynamoDB::Table per definition. */
const resources = ({ resolveVariable }) =>
  Promise.all([resolveVariable('self:service'), resolveVariable('sls:stage')]).then(([service, stage]) =>
    Object.fromEntries(
      TABLES.map((t) => [
        logicalId(t),
        { Type: 'AWS::DynamoDB::Table', Properties: { TableName: `${service}-${stage}-${t.name}`, ...t.properties } },
      ]),
    ),
  );

/**
 * serverless.yml: `${file(./tables/index.js):iamResources}`: the ARNs the Lambda role may use,
 * each table and, for a table with secondary indexes, its indexes; nothing else.
 */
const iamResources = () =>
  TABLES.flatMap((t) => {
    const arn = { 'Fn::GetAtt': [logicalId(t), 'Arn'] };
    const hasIndexes = (t.properties.GlobalSecondaryIndexes ?? []).length + (t.properties.LocalSecondaryIndexes ?? []).length > 0;
    return hasIndexes ? [arn, { 'Fn::Join': ['/', [arn, 'index', '*']] }] : [arn];
  });

module.exports = { DYNAMODB_ACTIONS, TABLES, logicalId, resources, iamResources };
