// The single source of truth for the DynamoDB tables: read by serverless.yml (CloudFormation
// resources) and by the local bootstrap (scripts and tests). Plain CommonJS so both can load it.
const main = require('./main.json');
const events = require('./events.json');

const TABLES = [main, events];

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

module.exports = { TABLES, logicalId, resources };
