// The uploads bucket and the only three roles that may use it: serverless.yml's resources
// (`${file(./buckets/index.js):resources}`). A function whose route declares `"bucket": "read"`
// (serving files) runs as UploadsReadRole, which may GetObject in the bucket; `"write"` (POST
// /user_uploads) as UploadsWriteRole, which may PutObject; `"delete"` (DELETE /attachments/{id})
// as UploadsDeleteRole, which may DeleteObject; the realmExport job as UploadsExportRole (all three,
// and invoking itself). Every other function keeps the default role,
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

const role = (s3Actions, extraStatements = []) => ({
  Type: 'AWS::IAM::Role',
  Properties: {
    AssumeRolePolicyDocument: {
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Principal: { Service: ['lambda.amazonaws.com'] }, Action: ['sts:AssumeRole'] }],
    },
    // CloudWatch Logs, as every function's.
    ManagedPolicyArns: [{ 'Fn::Sub': 'arn:${AWS::Partition}:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole' }],
    Policies: [
      {
        PolicyName: 'tables-and-uploads',
        PolicyDocument: {
          Version: '2012-10-17',
          Statement: [
            { Effect: 'Allow', Action: DYNAMODB_ACTIONS, Resource: iamResources() },
            { Effect: 'Allow', Action: s3Actions, Resource: [objectsArn] },
            ...extraStatements,
          ],
        },
      },
    ],
  },
});

/** serverless.yml: the bucket (named by the uploadsBucket parameter) and its four roles. */
const resources = async ({ resolveVariable }) => {
  const name = await resolveVariable('self:provider.environment.UPLOADS_BUCKET');
  const exportFunction = await resolveVariable('self:provider.environment.REALM_EXPORT_FUNCTION');
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
  };
};

module.exports = { BUCKET, resources };
