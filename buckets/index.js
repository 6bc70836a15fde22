// The uploads bucket and the only roles that may use it: serverless.yml's resources
// (`${file(./buckets/index.js):resources}`). A function whose route declares `"bucket": "read"`
// (serving files) runs as UploadsReadRole, which may GetObject in the bucket; `"write"` (POST
// /user_uploads) as UploadsWriteRole, which may PutObject; `"delete"` (DELETE /attachments/{id})
// as UploadsDeleteRole, which may DeleteObject; the realmExport job as UploadsExportRole (all three,
// and invoking itself); the realmImport job as UploadsImportRole (all three, listing, and invoking itself). Every other function keeps the default role,
// which has no S3 permission at all. The roles may use the tables as the default role does.
// Plain CommonJS, like tables/index.js.
const { DYNAMODB_ACTIONS, iamResources } = require('../tables/index.js');

const BUCKET = 'UploadsBucket';
const objectsArn = { 'Fn::Join': ['', [{ 'Fn::GetAtt': [BUCKET, 'Arn'] }, '/*']] };

const bucket = (name) => ({
  Type: 'AWS::S3::Bucket',
  Properties: {
    BucketName: name,
    // Files are served only through the functions (or URLs they sign): nothing is public.
    PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
    OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
    BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
  },
});

/** A role Lambda functions assume: CloudWatch Logs, as every function's, and the tables as the default role, plus `statements`. */
const lambdaRole = (policyName, statements) => ({
  Type: 'AWS::IAM::Role',
  Properties: {
    AssumeRolePolicyDocument: {
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Principal: { Service: ['lambda.amazonaws.com'] }, Action: ['sts:AssumeRole'] }],
    },
    ManagedPolicyArns: [{ 'Fn::Sub': 'arn:${AWS::Partition}:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole' }],
    Policies: [
      {
        PolicyName: policyName,
        PolicyDocument: {
          Version: '2012-10-17',
          Statement: [{ Effect: 'Allow', Action: DYNAMODB_ACTIONS, Resource: iamResources() }, ...statements],
        },
      },
    ],
  },
});

const role = (s3Actions, extraStatements = []) =>
  lambdaRole('tables-and-uploads', [{ Effect: 'Allow', Action: s3Actions, Resource: [objectsArn] }, ...extraStatements]);

/**
 * The email gateway's function (receiveEmail, functions/routes.js EMAIL_GATEWAY): the stored
 * emails under incoming/ of the incoming-email bucket (serverless.yml IncomingEmailBucket), and
 * invoking this stage's functions (a posted reply starts the send's jobs).
 */
const incomingEmailRole = (incomingBucket, functionPrefix) =>
  lambdaRole('tables-and-incoming-email', [
    { Effect: 'Allow', Action: ['s3:GetObject'], Resource: [`arn:aws:s3:::${incomingBucket}/incoming/*`] },
    {
      Effect: 'Allow',
      Action: ['lambda:InvokeFunction'],
      Resource: [{ 'Fn::Sub': `arn:\${AWS::Partition}:lambda:\${AWS::Region}:\${AWS::AccountId}:function:${functionPrefix}*` }],
    },
  ]);

/** serverless.yml: the bucket (named by the uploadsBucket parameter) and its four roles; the email gateway's role. */
const resources = async ({ resolveVariable }) => {
  const [name, exportFunction, importFunction, incoming, prefix] = await Promise.all([
    resolveVariable('self:provider.environment.UPLOADS_BUCKET'),
    resolveVariable('self:provider.environment.REALM_EXPORT_FUNCTION'),
    resolveVariable('self:provider.environment.REALM_IMPORT_FUNCTION'),
    resolveVariable('self:provider.environment.INCOMING_EMAIL_BUCKET'),
    resolveVariable('self:provider.environment.FUNCTION_PREFIX'),
  ]);
  return {
    [BUCKET]: bucket(name),
    UploadsReadRole: role(['s3:GetObject']),
    UploadsWriteRole: role(['s3:PutObject']),
    UploadsDeleteRole: role(['s3:DeleteObject']),
    // The realmExport job reads the files it exports and its own staged parts, writes them and the
    // archive, deletes the staged parts, and starts its own next run.
    UploadsExportRole: role(
      ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
      [
        {
          Effect: 'Allow',
          Action: ['lambda:InvokeFunction'],
          Resource: [{ 'Fn::Sub': `arn:\${AWS::Partition}:lambda:\${AWS::Region}:\${AWS::AccountId}:function:${exportFunction}` }],
        },
      ],
    ),
    // The realmImport job reads the archive, writes the imported files and its checkpoint state next
    // to the archive (listed to remove it: s3:ListBucket is a permission of the bucket, not its
    // objects), deletes them again if it fails, and starts its own next run.
    UploadsImportRole: role(
      ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
      [
        { Effect: 'Allow', Action: ['s3:ListBucket'], Resource: [{ 'Fn::GetAtt': [BUCKET, 'Arn'] }] },
        {
          Effect: 'Allow',
          Action: ['lambda:InvokeFunction'],
          Resource: [{ 'Fn::Sub': `arn:\${AWS::Partition}:lambda:\${AWS::Region}:\${AWS::AccountId}:function:${importFunction}` }],
        },
      ],
    ),
    IncomingEmailRole: incomingEmailRole(incoming, prefix),
  };
};

module.exports = { BUCKET, resources };
